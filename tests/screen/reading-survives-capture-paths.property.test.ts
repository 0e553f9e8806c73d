/**
 * What a capture path does to a screen never changes its reading: trimming every row's trailing
 * whitespace (tmux capture-pane, herdr's trim_end), adding trailing spaces or a no-break space
 * (xterm cells, padded backgrounds), writing a menu's spaces as NBSP (a Windows capture), or
 * unrelated history scrolling in above the live area. Run over every real capture we hold.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain, type ScreenReading } from '../../io/screen/index.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Plain captures of both fixture trees (the SGR twins read the same; the corpus test checks that). */
function plainCaptures(): { name: string; rows: string[] }[] {
  const out: { name: string; rows: string[] }[] = [];
  for (const tree of ['claude-code', 'claude-corpus']) {
    const root = join(FIXTURES, tree);
    for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.txt') || e.name.endsWith('.ansi.txt')) continue;
      const path = join(e.parentPath, e.name);
      const rows = readFileSync(path, 'utf8').split('\n');
      if (rows[rows.length - 1] === '') rows.pop();
      out.push({ name: relative(FIXTURES, path), rows });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const CAPTURES = plainCaptures();
const NBSP = '\u00A0';

type Core = Pick<ScreenReading, 'state' | 'awaitingInput' | 'promptBox' | 'promptBoxKind'>;
function core(rows: readonly string[]): Core {
  const r = analyseScreen(parsePlain(rows.join('\n')));
  return { state: r.state, awaitingInput: r.awaitingInput, promptBox: r.promptBox, promptBoxKind: r.promptBoxKind };
}

const capture = fc.constantFrom(...CAPTURES);

describe('a capture path never changes a reading', () => {
  it('trimming every row of all trailing whitespace (NBSP included)', () => {
    for (const c of CAPTURES) {
      expect(core(c.rows.map((r) => r.replace(/[\s\u00a0]+$/u, ''))), c.name).toEqual(core(c.rows));
    }
  });

  it('adding trailing spaces, a cursor cell or a no-break space to any rows', () => {
    const pad = fc.constantFrom(' ', '   ', NBSP, `${NBSP} `, ' '.repeat(40));
    fc.assert(
      fc.property(capture, fc.array(fc.tuple(fc.nat(60), pad), { maxLength: 12 }), (c, edits) => {
        const rows = [...c.rows];
        for (const [i, p] of edits) if (i < rows.length) rows[i] = rows[i]!.replace(/[\s\u00a0]+$/u, '') + p;
        expect(core(rows), c.name).toEqual(core(c.rows));
      }),
      { numRuns: 300 },
    );
  });

  it('removing the no-break space after a prompt glyph at a row end', () => {
    for (const c of CAPTURES) {
      const rows = c.rows.map((r) => r.replace(/^([\s│]*[❯>])\u00a0[\s\u00a0]*$/u, '$1'));
      expect(core(rows), c.name).toEqual(core(c.rows));
    }
  });

  it('a menu drawn with no-break spaces (`❯\\u00a01.\\u00a0Yes`) reads like one drawn with spaces', () => {
    for (const c of CAPTURES) {
      const rows = c.rows.map((r) => r.replace(/^(\s*[❯>]) (\d\.) /u, `$1${NBSP}$2${NBSP}`));
      expect(core(rows), c.name).toEqual(core(c.rows));
    }
  });
});

/** Finished turns of other sessions: prompts, replies, stale dialogs, spinner-ish lines. */
const HISTORY = [
  '❯ MODE:bash make a file',
  '> an older prompt',
  '● I will run a command.',
  '  ⎿  $ touch x',
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  '   2. No',
  ' Esc to cancel · Tab to amend',
  'Enter to select · ↑/↓ to navigate · Esc to cancel',
  '● Would you like to see the diff?',
  '✻ Baked for 4s · done 8:15 AM',
  '※ recap: made the file (disable recaps in /config)',
  '',
];

describe('history above the live area never changes a reading', () => {
  it('any earlier turns inserted at the top, ending in a finished turn', () => {
    const history = fc.array(fc.constantFrom(...HISTORY), { minLength: 1, maxLength: 14 });
    fc.assert(
      fc.property(capture, history, (c, lines) => {
        const turn = [...lines, '❯ the turn before', '● Done.', '✻ Cooked for 2s'];
        expect(core([...turn, ...c.rows]), c.name).toEqual(core(c.rows));
      }),
      { numRuns: 300 },
    );
  });
});
