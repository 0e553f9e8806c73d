/**
 * Rule: the suite starts its longest files first, but two files of one heavy agent (OpenCode, Qwen
 * Code, Gemini CLI, Codex) are not neighbours within the number of files that run at once, when
 * another file can go between them (tests/sequencer.ts): three OpenCode files started together at
 * the head of the list pushed OpenCode's calibration past its one-minute bound on two cores.
 * Nothing is dropped and the order is otherwise kept.
 */
import { describe, expect, it } from 'vitest';
import { spreadFamilies } from '../sequencer.ts';

const rows = (names: string[]) => names.map((name) => ({ name, family: name.includes(':') ? name.split(':')[1]! : null }));
const names = (r: { name: string }[]) => r.map((x) => x.name);

describe('heavy agents\' files do not start side by side', () => {
  it('a family waits for the next file without one among the last width − 1 taken; the rest keep their order', () => {
    const got = spreadFamilies(rows(['a:opencode', 'b', 'c:opencode', 'd:opencode', 'e:qwen', 'f', 'g', 'h:opencode', 'i']), 3);
    expect(names(got)).toEqual(['a:opencode', 'b', 'e:qwen', 'c:opencode', 'f', 'g', 'd:opencode', 'i', 'h:opencode']);
    // Up to the last file with no family (after it, the rest can only come side by side).
    for (let k = 0; k < got.length - 1; k++) {
      const window = got.slice(Math.max(0, k - 2), k + 1).filter((r) => r.family === 'opencode');
      expect(window.length, `around ${got[k]!.name}`).toBeLessThanOrEqual(1);
    }
  });

  it('nothing is dropped, and a family left alone goes as it comes', () => {
    const input = rows(['a:opencode', 'b:opencode', 'c:opencode', 'd']);
    const got = spreadFamilies(input, 6);
    expect(new Set(names(got))).toEqual(new Set(names(input)));
    expect(names(got)).toEqual(['a:opencode', 'd', 'b:opencode', 'c:opencode']);
  });

  it('one file at a time: nothing runs beside anything, and the order is kept', () => {
    const input = rows(['a:opencode', 'b:opencode', 'c', 'd:opencode']);
    expect(names(spreadFamilies(input, 1))).toEqual(names(input));
  });
});
