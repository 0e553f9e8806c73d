/**
 * Zero screens that wait on a person may be read as anything else (issue 21): every blocked
 * capture — the labelled cross-version corpus and the 2.1.332 dialogs — stays blocked, plain and
 * SGR, under the issue-21 rules (turn ends, exit below the box, framed dialogs, wrapped input),
 * at 120×40, 80×24 and 200×50, and with any history the new rules look at inserted into its
 * transcript: finished sub-agent entries, turn-end lines, quoted spinners, column-0 shell text,
 * framed rows, long `❯ ` rows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../io/screen/index.ts';
import { FIXTURE_DIR } from './helpers.ts';
import { atSize, plainScreen, SIZES } from './variants.ts';

const CORPUS = fileURLToPath(new URL('../fixtures/claude-corpus/', import.meta.url));

/** The 2.1.332 captures labelled blocked in every-capture-classifies-as-its-state. */
const DIALOGS = [
  '2.1.332/01-onboarding-theme', '2.1.332/01b-onboarding-security-notes', '2.1.332/02-api-key-confirm',
  '2.1.332/02b-onboarding-api-key-confirm', '2.1.332/03-trust-dialog', '2.1.332/04c-auto-mode-offer-dialog',
  '2.1.332/06-permission-bash', '2.1.332/07-ask-user-question',
  'observed/2.1.332/06-permission-bash-classic', 'observed/2.1.332/03b-bypass-permissions-warning',
];

function blockedCaptures(): { name: string; base: string }[] {
  const out = DIALOGS.map((name) => ({ name, base: join(FIXTURE_DIR, name) }));
  if (!existsSync(CORPUS)) return out;
  for (const version of readdirSync(CORPUS).sort()) {
    for (const file of readdirSync(join(CORPUS, version)).filter((f) => f.endsWith('.json')).sort()) {
      const meta = JSON.parse(readFileSync(join(CORPUS, version, file), 'utf8')) as { expected: { state: string } };
      if (meta.expected.state === 'blocked') out.push({ name: `${version}/${file.replace(/\.json$/, '')}`, base: join(CORPUS, version, file.replace(/\.json$/, '')) });
    }
  }
  return out;
}

const CAPTURES = blockedCaptures();
const rowsOfBase = (base: string) => readFileSync(`${base}.txt`, 'utf8').replace(/\n$/, '').split('\n');

const HISTORY = fc.constantFrom(
  '✻ Cooked for 48s · done 8:15 AM',
  '  ✶ general-purpose  Reading files… (48s · ↓ 3.1k tokens)',
  '✻ Waiting for 2 background agents to finish',
  '❯ print this: ✢ Transfiguring… (2s · ↓ 4 tokens)',
  '● API Error: 500 overloaded',
  'Total cost:            $0.0000',
  'user@host:~/repo$ claude',
  'Resend your message to try again',
  `│ Would you like to keep going?${' '.repeat(30)}│`,
  `❯ ${'a long earlier prompt that ran to the edge of the box '.repeat(3).slice(0, 116)}`,
  '  and went on under it',
  '',
);

describe('every screen that waits on a person stays blocked', () => {
  it('there are blocked captures to check', () => {
    expect(CAPTURES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CAPTURES.map((c) => [c.name, c] as const))('%s reads blocked, plain and SGR, at every size', (_name, c) => {
    const plain = readFileSync(`${c.base}.txt`, 'utf8');
    expect(analyseScreen(parsePlain(plain)).state, 'plain').toBe('blocked');
    if (existsSync(`${c.base}.ansi.txt`)) expect(analyseScreen(parseAnsi(readFileSync(`${c.base}.ansi.txt`, 'utf8'))).state, 'ansi').toBe('blocked');
    for (const [cols, height] of SIZES) {
      const reading = analyseScreen(plainScreen(atSize(rowsOfBase(c.base), cols, height), cols));
      expect(reading.state, `${cols}×${height}`).toBe('blocked');
      expect(reading.awaitingInput).toBe(true);
    }
  });

  it('history the new rules read, inserted into the transcript of any blocked capture, never unblocks it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CAPTURES), fc.array(HISTORY, { minLength: 1, maxLength: 6 }), fc.nat(), (c, add, seed) => {
        const rows = rowsOfBase(c.base);
        // the transcript: rows above the first third of the screen, never the dialog itself
        const at = seed % Math.max(1, Math.floor(rows.length / 3));
        const screen = [...rows.slice(0, at), ...add, ...rows.slice(at)].slice(add.length);
        const reading = analyseScreen(plainScreen(screen));
        expect(reading.state, `${c.name} + ${JSON.stringify(add)} at ${at}`).toBe('blocked');
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});
