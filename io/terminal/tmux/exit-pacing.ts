/**
 * When to ask tmux whether a quiet pane has died (pane-exit-watch.ts asks; this decides when), as
 * pure functions of one pane's output rhythm and a clock.
 *
 * After a pane's output goes quiet (an agent's last frame before it exits), `#{pane_dead}` is asked
 * at growing quiet gaps. A pane that has drawn at a steady pace for a while (a spinner's ten frames
 * a second) is asked only once a pause is longer than its pace (issue 26: a 60 ms gap came between
 * every two frames, so each working agent was asked about ten times a second). A pane that was
 * quiet, or whose pace broke, is asked after 60 ms.
 */

/** Quiet gaps after the last output at which `#{pane_dead}` is asked (ms, cumulative backoff). */
export const PROBE_DELAYS_MS = [60, 150, 400, 1000] as const;
/** Output after this much silence starts a new burst (a frame can come as several `%output` lines). */
export const BURST_GAP_MS = 20;
/** Bursts closer than this are a pace (a spinner's frames); a longer pause is not. */
export const PACE_MAX_MS = 400;
/** Bursts at a pace in a row before the first probe waits for the pace instead of 60 ms (about 2 s of a spinner). */
export const STEADY_BURSTS = 20;
/**
 * While a steady pane keeps drawing, its probe timer looks at the gap at most this often: waking
 * 30 ms after every frame to see the next one had come cost a loop wake per frame (a spinner's
 * ten a second, each wake 50–90 µs here) for a check that found activity nine times in ten.
 * A steady pane that stops is still asked within its pace × 1.3 + this.
 */
export const STEADY_RECHECK_MS = 250;

/** One pane's output rhythm. */
export interface ExitPace {
  /** Probes made since the last output. */
  probes: number;
  /** When the current quiet gap began (the last output, or the last probe that found it alive). */
  gapFrom: number;
  /** When the current burst of output began, the usual time between bursts, and how many came at that pace in a row. */
  burstAt: number;
  rhythm: number;
  steady: number;
}

export const newExitPace = (): ExitPace => ({ probes: 0, gapFrom: 0, burstAt: 0, rhythm: 0, steady: 0 });

/**
 * The pane drew (`fresh`: new output, the backoff starts again) or a probe found it alive (not
 * fresh: the next probe of the backoff): the quiet gap starts now.
 */
export function noteActivity(p: ExitPace, now: number, fresh: boolean): void {
  if (fresh) {
    p.probes = 0;
    if (now - p.gapFrom >= BURST_GAP_MS) {
      const interval = now - p.burstAt;
      if (interval < PACE_MAX_MS) {
        p.rhythm = p.steady > 0 ? p.rhythm * 0.8 + interval * 0.2 : interval;
        p.steady++;
      } else {
        p.steady = 0;
      }
      p.burstAt = now;
    }
  }
  p.gapFrom = now;
}

/** The pane draws at a steady pace and has not been asked since its last output: its wait follows that pace. */
export function pacedWait(p: ExitPace): boolean {
  return p.probes === 0 && p.steady >= STEADY_BURSTS;
}

/** The quiet gap after which the next probe asks (undefined: the backoff is spent, the subscription stays the backstop). */
export function probeDelay(p: ExitPace): number | undefined {
  const delay = PROBE_DELAYS_MS[p.probes];
  if (delay === undefined || !pacedWait(p)) return delay;
  return Math.min(Math.max(delay, p.rhythm * 1.3), PACE_MAX_MS);
}

/**
 * The probe timer fired at `now`: ask now (and count the probe), look again after `waitMs`
 * (activity came since: the gap is not over; a steady pane's next look waits a while longer), or
 * stop (the backoff is spent).
 */
export function onProbeTimer(p: ExitPace, now: number): { ask: true } | { waitMs: number } | { stop: true } {
  const delay = probeDelay(p);
  if (delay === undefined) return { stop: true };
  const quiet = now - p.gapFrom;
  if (quiet < delay) return { waitMs: pacedWait(p) ? Math.max(delay - quiet, STEADY_RECHECK_MS) : delay - quiet };
  p.probes++;
  return { ask: true };
}
