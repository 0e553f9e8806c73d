/**
 * A terminal read between two pieces of one frame shows a dialog's words before its choices. Such
 * a screen must never be read as a worker waiting on a person with nothing to answer (blocked,
 * `dialog: null`): that woke the Hand with no question to quote and no fingerprint for `hand
 * answer` (a Gemini CLI and a Qwen Code worker under load). Every blocked capture of every corpus
 * whose dialog offers choices is cut after each of its rows, as a frame drawn top down and caught
 * part way: each cut reads either as the dialog with its options or as not blocked yet.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, parseAnsi } from '../../io/screen/index.ts';
import type { Screen } from '../../io/screen/index.ts';
import { corpusCaptures, type CorpusMeta } from '../helpers/corpus-files.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const AGENTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
const OFFERS_CHOICES = new Set(['permission', 'question', 'folder-trust']);

/** The frame drawn down to row `k`, the rows under it not drawn yet. */
const cutAfter = (screen: Screen, k: number): Screen => ({ ...screen, lines: screen.lines.slice(0, k) });

describe('a dialog caught before its choices are drawn is not yet a question', () => {
  for (const agent of AGENTS) {
    it(`${agent}: every cut of every dialog with choices reads as that dialog with its options, or not blocked`, () => {
      const captures = corpusCaptures<CorpusMeta>(join(FIXTURES, `${agent}-corpus`));
      const emptyQuestions: string[] = [];
      let dialogs = 0;
      let drawing = 0;
      for (const c of captures) {
        const reader = getProfile(`${agent}@${c.meta.version}`);
        const screen = parseAnsi(readFileSync(`${c.base}.ansi.txt`, 'utf8'));
        const whole = reader.analyse(screen);
        if (whole.state !== 'blocked' || !OFFERS_CHOICES.has(whole.blockedReason ?? '')) continue;
        // The whole frame is the question with its options (the corpus tests say which).
        expect(whole.dialog, c.name).not.toBeNull();
        dialogs++;
        for (let k = 1; k < screen.lines.length; k++) {
          const part = reader.analyse(cutAfter(screen, k));
          // (Codex CLI draws its welcome above its trust question: a cut there is blocked on that
          // welcome, an onboarding screen that offers no choices to read.)
          if (part.awaitingInput && part.dialog === null && OFFERS_CHOICES.has(part.blockedReason ?? '')) emptyQuestions.push(`${c.name} cut after row ${k}: ${part.blockedReason}`);
          // The dialog's words drawn, its choices not yet: read as could-not-tell, never idle.
          if (!part.awaitingInput && part.state === 'unknown' && reader.analyse(cutAfter(screen, k + 1)).awaitingInput) drawing++;
          if (part.state === 'idle') expect(part.promptBox, `${c.name} cut after row ${k} read idle`).not.toBeNull();
        }
      }
      expect(dialogs, 'the corpus holds dialogs with choices').toBeGreaterThan(0);
      expect(emptyQuestions).toEqual([]);
      expect(drawing, 'some cuts catch a dialog between its words and its choices').toBeGreaterThan(0);
    });
  }
});
