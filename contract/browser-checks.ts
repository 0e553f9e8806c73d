/**
 * Browser checks by the implementing worker (issue 40, the witness skill): a brief's
 * `## Browser checks` section lists observable checks (`C-001 …`), the worker runs each in a real
 * headless Chromium through `hand browser-check`, and the landing evidence carries the verdict.
 * A check is verified only by a recorded observation that shows what it expected; a missing
 * browser, a missing record or a bare claim is `not checked`, never verified.
 */

export const CHECK_RESULTS = ['verified', 'failed', 'not checked'] as const;
export type CheckResult = (typeof CHECK_RESULTS)[number];

/** One check of the brief, judged from the worker's record. */
export interface JudgedCheck {
  id: string;
  /** The brief's line for it. */
  text: string;
  result: CheckResult;
  /**
   * What was observed, or why it is not checked or failed: written in the worker's sandbox, so
   * the worker's words (faces quote them).
   */
  said: string;
}

export interface BrowserChecksVerdict {
  /** failed when any failed; not checked when any is not checked; verified only when all are. */
  verdict: CheckResult;
  /** `verified — 3 checks: 3 verified` */
  line: string;
  counts: Record<CheckResult, number>;
  checks: JudgedCheck[];
}
