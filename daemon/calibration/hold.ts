/**
 * How long a calibration reading must keep saying its situation before it counts (drive.ts): from
 * the first reading that says it, HOLD_MS and at least two readings that say it, any reading that
 * does not say it starting over. A read that failed (a loaded terminal server, a pane that has
 * just ended) shows nothing, so it is left out: it neither says the situation nor breaks it — an
 * exited agent read right and then unreadable for a moment used to be judged wrong.
 */
export interface Hold {
  /** When the readings began saying it (null: the last reading did not). */
  since: number | null;
  /** Readings that said it since then. */
  said: number;
}

export const NO_HOLD: Hold = { since: null, said: 0 };

/** The hold after one reading that was taken: `says` whether it said the situation while it held. */
export function holdAfter(h: Hold, says: boolean, now: number): Hold {
  return says ? { since: h.since ?? now, said: h.said + 1 } : NO_HOLD;
}

/** Whether the readings have said it long enough. */
export function held(h: Hold, now: number, holdMs: number): boolean {
  return h.since !== null && h.said >= 2 && now - h.since >= holdMs;
}
