/**
 * The skeleton every agent's corpus test shares (Gemini CLI, OpenCode, Qwen Code): each capture of
 * tests/fixtures/<agent>-corpus/<version>/, plain and SGR, read with the agent's profile and with
 * the profile of its version (`<agent>@<version>`), scored by useCorpusScores against the label the
 * scenario gave it. Each agent's test names what its corpus must hold and what else each reading
 * must say (its dialogs' words, its errors).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ScreenReading } from '../../io/screen/types.ts';
import { corpusCases, screenOf, useCorpusScores, type CorpusCase } from '../helpers/corpus-readings.ts';

export interface LabelledCorpus {
  /** The profile's name, also the corpus folder's (`<agent>-corpus`). */
  agent: string;
  /** The rule's words (`every Qwen Code corpus capture reads as labelled`). */
  title: string;
  /** What the corpus must hold (its versions, its backends), as a test of its own. */
  holds: { title: string; check(cases: readonly CorpusCase[]): void };
  /** A case's test title. */
  caseTitle(c: CorpusCase): string;
  /** What `reading` (by `profile`) must say of case `c` beyond its state. */
  check(reading: ScreenReading, c: CorpusCase, profile: string): void;
}

export function everyCaptureReadsAsLabelled(o: LabelledCorpus): void {
  const cases = corpusCases(fileURLToPath(new URL(`../fixtures/${o.agent}-corpus/`, import.meta.url)));
  const corpus = useCorpusScores(o.agent);
  describe(o.title, () => {
    it(o.holds.title, () => o.holds.check(cases));

    it.each(cases.map((c) => [o.caseTitle(c), c] as const))('%s', (_name, c) => {
      const screen = screenOf(c);
      for (const profile of [o.agent, `${o.agent}@${c.meta.version}`]) o.check(corpus.read(screen, c, profile), c, profile);
    });
  });
}

/** At least two versions, under tmux and pty. */
export const TWO_VERSIONS_BOTH_BACKENDS = {
  title: 'the corpus holds captures of at least two versions, under tmux and pty',
  check(cases: readonly CorpusCase[]) {
    expect(new Set(cases.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(cases.map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
  },
};
