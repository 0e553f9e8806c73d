/**
 * Rule: `hand answer` reads each key's effect back from the screen, and a screen that showed it
 * before the key's own call came back counts. The worker's view is published when a reading
 * lands; under load the reading of a moved cursor landed while the key's request was still
 * finishing, and a wait that took only views published after the call saw none: the answer was
 * refused as `key-not-seen` 3 s later, its cursor already on the option (seen in full runs of
 * the suite). A fleet whose every key publishes its effect before the call returns: each key is
 * seen at once, and the option is answered. An unreadable screen after the Enter shows no dialog
 * and is not taken for the dialog gone; nor is one reading that shows the dialog cut short when
 * the next shows it whole again (a frame read mid-redraw: seen with Qwen Code in a full run, the
 * answer told done and the worker blocked on the same dialog 50 ms later).
 */
import { describe, expect, it } from 'vitest';
import { answerDialog, KEY_READBACK_MS } from '../../daemon/fleet/answer.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import type { DialogReading } from '../../contract/screen-reading.ts';
import type { Key } from '../../contract/keys.ts';
import { RefusedError } from '../../contract/errors.ts';

const dialog = (cursor: number): DialogReading => ({
  fingerprint: 'f00dfeed00000001', reason: 'question', question: 'Which database?', numbered: true, cursor, textField: false,
  options: [1, 2, 3].map((n) => ({ n, label: ['SQLite', 'Postgres', 'None'][n - 1]!, freeText: false })),
});

/** A worker whose screen answers each key before the key's call resolves. */
function eagerFleet(o: { afterEnter?: 'answered' | 'unreadable' | 'torn-then-taken' | 'torn-and-ignored' } = {}): { fleet: FleetHostApi; keys: Key[] } {
  let view = { id: 'w1', stage: 'running.blocked', state: 'blocked', readable: true, dialog: dialog(1) as DialogReading | null };
  const listeners = new Set<(v: typeof view) => void>();
  const keys: Key[] = [];
  const publishLater = (v: typeof view, ms: number) => setTimeout(() => {
    view = v;
    for (const l of listeners) l(view);
  }, ms);
  const fleet = {
    view: (id: string) => (id === 'w1' ? view : null),
    freshView: async (id: string) => (id === 'w1' ? view : null),
    subscribe(l: (v: typeof view) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async key(_id: string, key: Key) {
      keys.push(key);
      const d = view.dialog!;
      if (key !== 'enter') view = { ...view, dialog: { ...d, cursor: d.cursor! + 1 } };
      else if (o.afterEnter === 'unreadable') view = { ...view, state: 'unknown', readable: false, dialog: null };
      else if (o.afterEnter?.startsWith('torn')) {
        // One reading of the dialog mid-redraw: its first option only, so another fingerprint.
        const whole = view;
        view = { ...view, dialog: { ...d, fingerprint: 'f00dfeed0000torn', options: d.options.slice(0, 1) } };
        publishLater(whole, 30);
        if (o.afterEnter === 'torn-then-taken') publishLater({ ...whole, stage: 'running.working', state: 'working', dialog: null }, 500);
      }
      else view = { ...view, stage: 'running.working', state: 'working', dialog: null };
      for (const l of listeners) l(view);
      await new Promise((r) => setTimeout(r, 5)); // the request finishes after the reading landed
      return view;
    },
  };
  return { fleet: fleet as unknown as FleetHostApi, keys };
}

describe("an answer's key seen before its call returns counts", () => {
  it('an unreadable screen after Enter is not taken for the dialog gone', async () => {
    const { fleet } = eagerFleet({ afterEnter: 'unreadable' });
    const r = await answerDialog(fleet, { id: 'w1', option: 1, fingerprint: 'f00dfeed00000001' }).catch((e: unknown) => e);
    // Refused, saying Enter went out: never reported as answered on a screen that proves nothing.
    expect(r).toBeInstanceOf(RefusedError);
    expect((r as RefusedError).details).toMatchObject({ pressed: ['enter'] });
  });

  it('option 3: down, down, Enter, each seen at once; answered', async () => {
    const { fleet, keys } = eagerFleet();
    const started = Date.now();
    const r = await answerDialog(fleet, { id: 'w1', option: 3, fingerprint: 'f00dfeed00000001' });
    expect(keys).toEqual(['down', 'down', 'enter']);
    expect(r.keys).toEqual(['down', 'down', 'enter']);
    expect(r.message).toContain('answered 3');
    expect(Date.now() - started, 'no key waited out its read-back bound').toBeLessThan(KEY_READBACK_MS);
  });

  it('a reading of the dialog cut short, then whole again: the answer waits for the screen that took Enter', async () => {
    const { fleet } = eagerFleet({ afterEnter: 'torn-then-taken' });
    const started = Date.now();
    const r = await answerDialog(fleet, { id: 'w1', option: 1, fingerprint: 'f00dfeed00000001' });
    expect(r.message).toContain('answered 1');
    expect(r.stage, 'told done only on the screen that took the key').toBe('running.working');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('a reading cut short, then the same dialog that stays: refused, saying Enter went out', async () => {
    const { fleet } = eagerFleet({ afterEnter: 'torn-and-ignored' });
    const r = await answerDialog(fleet, { id: 'w1', option: 1, fingerprint: 'f00dfeed00000001' }).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(RefusedError);
    expect((r as RefusedError).code).toBe('key-not-seen');
    expect((r as RefusedError).details).toMatchObject({ pressed: ['enter'] });
  });
});
