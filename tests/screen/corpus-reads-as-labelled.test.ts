/**
 * Every capture of the cross-version corpus (tests/fixtures/claude-corpus/<version>/, written by
 * `npm run capture -- --claude <version>`) reads as the scenario that produced it says — plain
 * and SGR, tmux and pty. The label comes from what the scenario did, never from this reader.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../io/screen/index.ts';
import { corpusCaptures } from '../helpers/corpus-files.ts';

const CORPUS = fileURLToPath(new URL('../fixtures/claude-corpus/', import.meta.url));

interface Meta {
  version: string;
  backend: 'tmux' | 'pty';
  cols: number;
  rows: number;
  scenario: string;
  expected: { state: string; promptBox?: string; agentError?: boolean };
}

const CASES = corpusCaptures<Meta>(CORPUS).flatMap((c) => [
  { ...c, format: 'plain' as const },
  { ...c, format: 'ansi' as const },
]);

/** One reading's verdict, kept for the score table printed after the run. */
interface Verdict { version: string; scenario: string; right: boolean; waitsOnPerson: boolean }
const verdicts: Verdict[] = [];

/** `right/total` per key, sorted, one line each. */
function table(by: (v: Verdict) => string): string[] {
  const groups = new Map<string, { right: number; total: number }>();
  for (const v of verdicts) {
    const g = groups.get(by(v)) ?? { right: 0, total: 0 };
    g.total++;
    if (v.right) g.right++;
    groups.set(by(v), g);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([k, g]) => `  ${k.padEnd(28)} ${String(g.right).padStart(4)}/${String(g.total).padEnd(4)} ${g.right === g.total ? '' : '← wrong: ' + (g.total - g.right)}`);
}

// The scores per release and per situation (issue 21 asks for them in the test output).
afterAll(() => {
  if (verdicts.length === 0) return;
  const right = verdicts.filter((v) => v.right).length;
  const missedPerson = verdicts.filter((v) => v.waitsOnPerson && !v.right).length;
  console.log([
    `corpus readings: ${right}/${verdicts.length} right (each capture read four ways: plain and SGR, by the general profile and by its release's); screens that wait on a person read as anything else: ${missedPerson}`,
    'per release:', ...table((v) => v.version), 'per situation:', ...table((v) => v.scenario),
  ].join('\n'));
});

describe('every corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least six versions', () => {
    expect(new Set(CASES.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(6);
  });

  it.each(CASES.map((c) => [`${c.name} (${c.format})`, c] as const))('%s', (_name, c) => {
    const text = readFileSync(`${c.base}${c.format === 'ansi' ? '.ansi.txt' : '.txt'}`, 'utf8');
    const opts = { cols: c.meta.cols, rows: c.meta.rows };
    const screen = c.format === 'ansi' ? parseAnsi(text, opts) : parsePlain(text, opts);
    // the general reader, and the profile a worker gets when its version was recorded at dispatch
    for (const agent of ['claude', `claude@${c.meta.version}`]) {
      const reading = analyseScreen(screen, agent);
      const want = c.meta.expected;
      const errorRight = want.agentError === undefined || (reading.agentError != null) === want.agentError;
      const right = reading.state === want.state && (want.promptBox === undefined || reading.promptBox === want.promptBox) && errorRight;
      verdicts.push({ version: c.meta.version, scenario: c.meta.scenario, right, waitsOnPerson: want.state === 'blocked' });
      expect(reading.state, agent).toBe(want.state);
      if (want.promptBox !== undefined) expect(reading.promptBox, agent).toBe(want.promptBox);
      if (want.agentError !== undefined) expect(reading.agentError != null, `${agent}: the turn ended in an error`).toBe(want.agentError);
    }
  });
});
