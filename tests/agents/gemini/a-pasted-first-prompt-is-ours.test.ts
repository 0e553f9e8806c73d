/**
 * Gemini CLI 0.61.0 folds a long bracketed paste into `[Pasted Text: 681 chars]`: the first
 * prompt typed into an empty box and left there by a lost Enter reads as ours, so the worker
 * presses Enter again instead of stopping as "first prompt not submitted" (seen in the e2e run).
 */
import { describe, expect, it } from 'vitest';
import { boxTextIsPrompt } from '../../../machines/worker.guards.ts';

const PROMPT = 'Read the brief at /tmp/x/brief.md in full before you start, then do the work it describes.';

describe("a long first prompt folded into Gemini CLI's paste marker is ours", () => {
  it("Gemini CLI's [Pasted Text: N chars] reads as our prompt in the box", () => {
    expect(boxTextIsPrompt('[Pasted Text: 681 chars]', PROMPT)).toBe(true);
  });
  it("Claude Code's marker still does, and other text still does not", () => {
    expect(boxTextIsPrompt('[Pasted text #1 +3 lines]', PROMPT)).toBe(true);
    expect(boxTextIsPrompt('[Pasted Text: many]', PROMPT)).toBe(false);
    expect(boxTextIsPrompt('run the tests', PROMPT)).toBe(false);
  });
});
