/**
 * Rule: a decision's answer is delivered exactly once whatever step of its delivery a daemon
 * kill finds (issue 43). The daemon SIGKILLed 0.2–0.4 s into `hand decide`'s delivery left the
 * answer typed and never submitted, three times in three: the decision read answered/pending,
 * the worker stayed parked with our text in its box, which every later delivery refused.
 *
 * Four parked mock workers, each held by a fault hold (daemon/fault-holds.ts) at one step
 * of its delivery, the daemon SIGKILLed with all four there at once, and the next command starts
 * it again without the holds:
 * - answered, nothing typed → delivered as an ordinary answer;
 * - typed, not marked → its Enter never went: the box cleared (the text proves it is ours) and
 *   the answer typed again whole (recovery 'rolled-back');
 * - marked, Enter not pressed → one Enter (recovery 'entered');
 * - Enter pressed, not recorded → never typed again (recovery 'found-sent').
 * Each mock's event log counts the prompts it received: the brief and one answer, the answer whole.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { FAULT_HOLD_ENV, type DeliveryHold } from '../../daemon/fault-holds.ts';
import { answerPrompt } from '../../daemon/work/decision-delivery.ts';
import type { Decision, DecisionRow } from '../../contract/methods/work.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { writeParkBrief } from '../helpers/cli-world.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { killDaemon, seenAt, type FaultWorld } from './fault-world.ts';

const STEPS: Record<string, { hold: DeliveryHold; recovery: Decision['recovery'] }> = {
  'd-answered': { hold: 'decision.answered', recovery: null },
  'd-typed': { hold: 'decision.typed', recovery: 'rolled-back' },
  'd-marked': { hold: 'decision.marked', recovery: 'entered' },
  'd-entered': { hold: 'decision.entered', recovery: 'found-sent' },
};
const ids = Object.keys(STEPS);

interface MockEvent { event: string; promptSha256?: string; promptLength?: number }

let w: CliWorld;
let logs: ReturnType<typeof makeTempDir>;
const logOf = (id: string) => join(logs.path, `events-${id}.log`);
const prompts = (id: string): MockEvent[] =>
  existsSync(logOf(id)) ? readFileSync(logOf(id), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MockEvent).filter((e) => e.event === 'turn-started') : [];
const decisions = (): Promise<DecisionRow[]> => call(homePaths(w.home), 'decisions', { all: true }, { autostart: false });
const statusRows = (): Promise<Array<{ id: string; stage: string; promptBox: string | null; reportPath: string }>> => call(homePaths(w.home), 'status', {}, { autostart: false });

beforeAll(async () => {
  logs = makeTempDir('decision-kill-events');
  w = await makeCliWorld('decision-kill', { daemonProcess: true });
  const holds = ids.map((id) => `${id}=${STEPS[id]!.hold}`).join(',');
  // The first command starts the daemon: with the holds in its environment.
  expect((await w.hand(['annex', w.repo, '--yolo'], { env: { [FAULT_HOLD_ENV]: holds } })).code).toBe(0);
  const brief = writeParkBrief(w);
  const runs = await Promise.all(ids.map((id) => w.hand(['dispatch', id, '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--json', '--env', `KH_MOCK_EVENT_LOG=${logOf(id)}`])));
  runs.forEach((r, i) => expect(r.code, `dispatch ${ids[i]}: ${r.stdout}${r.stderr}`).toBe(0));
  await seenAt(w as FaultWorld, new Map(ids.map((id) => [id, (s: string) => s === 'parked'])), 'every worker parked on its decision', 90_000);
}, 180_000);
afterAll(async () => {
  await w?.cleanup();
  logs?.cleanup();
});

describe('a decision killed at any step of its delivery is delivered once', () => {
  it('SIGKILL at each step (answered, typed, marked, entered): each answer ends sent, received exactly once and whole, and its record says how', async () => {
    const open = await waitFor(async () => {
      const d = (await decisions()).filter((x) => x.state === 'open');
      return d.length === ids.length ? d : undefined;
    }, { what: 'the four open decisions', timeoutMs: 30_000 });
    const keyOf = (id: string) => open.find((d) => d.worker === id)!.key;
    const rows = await statusRows();
    const answerOf = (id: string) => answerPrompt({ ...open.find((d) => d.worker === id)!, answer: 'SQLite', openedAt: 0, closedAt: 0 }, rows.find((r) => r.id === id)!.reportPath);
    // Each decide is held inside its delivery: it ends only with the daemon.
    const decides = ids.map((id) => w.hand(['decide', keyOf(id), 'SQLite', '--json'], { timeoutMs: 120_000 }).catch(() => null));

    // Every worker at its step, read from what each step leaves behind.
    await waitFor(async () => {
      const d = await decisions();
      const r = await statusRows();
      const box = (id: string) => r.find((x) => x.id === id)?.promptBox ?? '';
      const answered = d.filter((x) => x.state === 'answered').length === ids.length;
      const typed = box('d-typed').includes('The person answered');
      const marked = existsSync(join(w.home, 'workers', 'd-marked', 'decision.sent')) && box('d-marked').includes('The person answered');
      const entered = prompts('d-entered').length === 2;
      return answered && typed && marked && entered;
    }, { what: 'each worker at its step of the delivery (answered; typed; marked; entered)', timeoutMs: 60_000 });
    expect(prompts('d-typed').length, 'the typed answer was never submitted').toBe(1);
    expect(prompts('d-marked').length, 'the marked answer was never submitted').toBe(1);

    await killDaemon(w);
    await Promise.all(decides);
    // The next command starts the daemon again, without the holds.
    const s = await w.hand(['status', '--json']);
    expect(s.code, s.stdout + s.stderr).toBe(0);

    const after = await waitFor(async () => {
      const d = await decisions();
      return d.every((x) => x.delivery === 'sent') ? d : undefined;
    }, { what: 'every decision delivered after the restart', timeoutMs: 60_000 }).catch(async (err: unknown) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify((await decisions()).map((x) => [x.worker, x.state, x.delivery, x.recovery]))}`);
    });
    await seenAt(w as FaultWorld, new Map(ids.map((id) => [id, (st: string) => st === 'done'])), 'every worker done with its answer', 60_000);
    for (const id of ids) {
      const got = prompts(id);
      expect(got.length, `${id}: prompts received (the brief and one answer)`).toBe(2);
      const answer = answerOf(id);
      expect(got[1]!.promptSha256, `${id}: the answer arrived whole`).toBe(createHash('sha256').update(answer).digest('hex'));
      expect(after.find((x) => x.worker === id)!.recovery, `${id}: what the record says of the delivery`).toBe(STEPS[id]!.recovery);
    }
  }, 300_000);
});
