/**
 * Rule: a running turn whose spinner line wraps still reads working. Qwen Code and Gemini CLI draw
 * a running turn as a spinner, a witty phrase of any length and a cancel hint in brackets; a long
 * phrase wraps the hint onto the next row. A real Qwen Code 0.15.10 worker under the suite's load
 * was drawn so — `⠹I've seen things you people wouldn't believe... like a user who reads loading
 * messa (0s · ↓ 13 tokens · esc to` over an indented `cancel)` — and was read idle and settled while
 * its shell command ran. Built here from the corpus's own working captures with that line in place
 * of theirs (the hint cut at each word boundary); the captures as they are still read working, and
 * a finished turn's screen with the same words in its transcript, far above the composer, does not.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { fixtureText, screenOf } from './helpers.ts';

const PHRASE = "I've seen things you people wouldn't believe... like a user who reads loading messa";

/** The capture's spinner row (`line` finds it) replaced by `rows`. */
function withSpinner(capture: string, line: RegExp, rows: string[]): string[] {
  const texts = fixtureText(capture).split('\n');
  const at = texts.findIndex((t) => line.test(t));
  expect(at, `the spinner row of ${capture}`).toBeGreaterThan(0);
  return [...texts.slice(0, at), ...rows, ...texts.slice(at + 1)];
}

/** The hint `words` wrapped after each of its words in turn, the rest indented under the phrase. */
function wrappings(head: string, words: string[], indent: number): string[][] {
  const out: string[][] = [];
  for (let cut = 1; cut < words.length; cut++) out.push([`${head} ${words.slice(0, cut).join(' ')}`, `${' '.repeat(indent)}${words.slice(cut).join(' ')}`]);
  return out;
}

describe('a cancel hint wrapped onto the next row is still a running turn', () => {
  const cases = [
    { agent: 'qwen', capture: '../qwen-corpus/0.15.10/tmux-working.txt', line: /esc to cancel\)/, head: `  ⠹${PHRASE}`, hint: ['(0s', '·', '↓', '13', 'tokens', '·', 'esc', 'to', 'cancel)'] },
    { agent: 'gemini', capture: '../gemini-corpus/0.61.0/tmux-working.txt', line: /\(esc to cancel/, head: ` ⠸ ${PHRASE}`, hint: ['(esc', 'to', 'cancel,', '2s)'] },
  ];
  for (const c of cases) {
    it(`${c.agent}: the capture reads working, and so does its spinner line wrapped at every word of the hint`, () => {
      expect(analyseScreen(screenOf(...fixtureText(c.capture).split('\n')), c.agent).state).toBe('working');
      for (const rows of wrappings(c.head, c.hint, 87)) {
        const reading = analyseScreen(screenOf(...withSpinner(c.capture, c.line, rows)), c.agent);
        expect(reading.state, rows.join(' ⏎ ')).toBe('working');
      }
    });
  }

  it('qwen: the same words in a finished turn\'s transcript, far above the composer, are not a running turn', () => {
    const capture = '../qwen-corpus/0.15.10/tmux-finished-turn-80x24.txt';
    const texts = fixtureText(capture).split('\n');
    const first = texts.findIndex((t) => t.trim() !== '');
    const moved = [...texts.slice(0, first), `  ${PHRASE} (esc to`, '  cancel)', ...texts.slice(first)];
    expect(analyseScreen(screenOf(...texts), 'qwen').state).toBe('idle');
    expect(analyseScreen(screenOf(...moved.slice(0, texts.length)), 'qwen').state).toBe('idle');
  });
});
