/**
 * When tmux is asked whether a quiet pane died (io/terminal/tmux/exit-pacing.ts): a pane that went
 * quiet is asked after 60, 150, 400 and 1000 ms of quiet, then no more (the subscription is the
 * backstop); output starts the backoff again. A pane that draws at a steady pace (a spinner's ten
 * frames a second) is asked only once a pause outlasts its pace, and its timer looks at the gap
 * at most every 250 ms while it keeps drawing; a pause breaks the pace, and the next quiet is
 * asked after 60 ms again.
 */
import { describe, expect, it } from 'vitest';
import { PACE_MAX_MS, PROBE_DELAYS_MS, STEADY_BURSTS, STEADY_RECHECK_MS, newExitPace, noteActivity, onProbeTimer, probeDelay } from '../../io/terminal/tmux/exit-pacing.ts';

describe('a quiet pane is asked at growing gaps, a steady one after its pace', () => {
  it('quiet output: asked at 60, 150, 400, 1000 ms of quiet, each probe that finds it alive the next step; then never', () => {
    const p = newExitPace();
    noteActivity(p, 1_000, true);
    const asked: number[] = [];
    let now = 1_000;
    for (;;) {
      const delay = probeDelay(p);
      if (delay === undefined) break;
      now += delay;
      expect(onProbeTimer(p, now)).toEqual({ ask: true });
      asked.push(delay);
      noteActivity(p, now, false); // the probe found it alive: the next gap starts now
    }
    expect(asked).toEqual([...PROBE_DELAYS_MS]);
    expect(onProbeTimer(p, now + 10_000)).toEqual({ stop: true });
    // New output: the backoff starts again.
    noteActivity(p, now + 20_000, true);
    expect(probeDelay(p)).toBe(60);
  });

  it('output since the timer was set: the timer waits out the rest of the gap instead of asking', () => {
    const p = newExitPace();
    noteActivity(p, 0, true);
    noteActivity(p, 40, true); // more output 40 ms later
    expect(onProbeTimer(p, 60)).toEqual({ waitMs: 40 });
    expect(onProbeTimer(p, 100)).toEqual({ ask: true });
  });

  it('a spinner at ten frames a second: once steady, a pause is asked only after its pace × 1.3, and the timer looks at most every 250 ms', () => {
    const p = newExitPace();
    let now = 0;
    for (let i = 0; i <= STEADY_BURSTS; i++) noteActivity(p, (now = i * 100), true);
    expect(probeDelay(p)).toBeCloseTo(130, 5);
    // Still drawing: a frame 30 ms ago; the look waits the longer of the rest and 250 ms.
    noteActivity(p, (now += 100), true);
    expect(onProbeTimer(p, now + 30)).toEqual({ waitMs: STEADY_RECHECK_MS });
    // It stops: asked once the pause outlasts the pace.
    expect(onProbeTimer(p, now + 131)).toEqual({ ask: true });
    // A pace is never waited past PACE_MAX_MS, however slow.
    const slow = newExitPace();
    for (let i = 0; i <= STEADY_BURSTS; i++) noteActivity(slow, i * 390, true);
    expect(probeDelay(slow)).toBe(PACE_MAX_MS);
  });

  it('a pause longer than a pace breaks it: the next quiet is asked after 60 ms again', () => {
    const p = newExitPace();
    for (let i = 0; i <= STEADY_BURSTS; i++) noteActivity(p, i * 100, true);
    expect(probeDelay(p)).toBeGreaterThan(60);
    noteActivity(p, STEADY_BURSTS * 100 + 2_000, true);
    expect(probeDelay(p)).toBe(60);
  });
});
