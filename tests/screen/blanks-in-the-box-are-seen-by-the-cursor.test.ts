/**
 * Blanks typed into the input box are seen: on a plain screen a box of spaces reads as empty, and
 * teardown typed /exit after them ("  /exit" is a prompt, not the command) and timed out. The
 * app's own cursor (an inverse cell) stands after the blanks, so an attributed capture shows them;
 * they read as typed text, which teardown clears before /exit and which a send is refused over.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../io/screen/index.ts';
import { FIXTURE_DIR } from './helpers.ts';

const idle = readFileSync(`${FIXTURE_DIR}2.1.332/04-idle-box.ansi.txt`, 'utf8');
const BOX = '\u276F\u00A0';

function withBox(replacement: string): string {
  const rows = idle.split('\n');
  const i = rows.findIndex((r) => r.includes(`${BOX}\x1b[7m`));
  expect(i, 'the idle capture has its box row').toBeGreaterThan(-1);
  rows[i] = rows[i]!.replace(`${BOX}\x1b[7m`, replacement);
  return rows.join('\n');
}

describe('blanks in the box are seen by the cursor', () => {
  it('an empty box stays empty', () => {
    expect(analyseScreen(parseAnsi(idle))).toMatchObject({ promptBox: '', promptBoxKind: 'empty' });
  });

  it('blanks before a trimmed cursor (as tmux captures Claude Code) read as typed blanks', () => {
    expect(analyseScreen(parseAnsi(withBox(`${BOX}   \x1b[7m`)))).toMatchObject({ promptBox: '   ', promptBoxKind: 'typed' });
  });

  it('blanks before a drawn cursor cell (as the mock draws it) read as typed blanks', () => {
    expect(analyseScreen(parseAnsi(withBox(`${BOX}  \x1b[7m \x1b[0m`)))).toMatchObject({ promptBox: '  ', promptBoxKind: 'typed' });
  });

  it('a plain capture cannot tell: it reads empty, as before', () => {
    const plain = withBox(`${BOX}   \x1b[7m`).replace(/\x1b\[[0-9;]*m/g, '');
    expect(analyseScreen(parsePlain(plain))).toMatchObject({ promptBox: '' });
  });
});
