/**
 * The commands into one worker (actors/fleet-host.ts serves them): send and key as requests the
 * worker's machine answers — delivered through the ports, or refused — and what works on the pane
 * beside the machine: a decision's answer resumed after a restart, stop, release, a read of the
 * screen, a view from a reading taken now. Typing goes one caller at a time per worker, in its
 * input lane (actors/input-lane.ts).
 */
import type { WorkerEvent } from '../machines/worker.types.ts';
import type { WorkerRuntime } from './worker-logic.ts';
import { RefusedError } from '../contract/errors.ts';
import type { WorkerPorts } from '../io/ports/worker-ports.ts';
import type { Clock } from './ports.ts';
import type { FleetHost } from './fleet-host-interface.ts';
import type { FleetRegistry } from './fleet-registry.ts';
import type { HostAnswers } from './host-answers.ts';
import { createInputLanes } from './input-lane.ts';
import { Requests, refusalError } from './requests.ts';
import { resumeAnswer } from './decision-resume.ts';
import { waitFor } from './wait-for.ts';
import { onInput } from './witness.ts';
import type { WorkerView } from './worker-view.ts';

/** How long a caller waits for a reading taken for it (freshView): a read takes a few ms, a loaded tmux more. */
export const FRESH_READ_MS = 1000;

export interface WorkerCommandsDeps {
  registry: FleetRegistry;
  answers: Pick<HostAnswers, 'whileAnswering'>;
  ports: WorkerPorts;
  clock: Clock;
  log?: (obj: Record<string, unknown>) => void;
}

export type WorkerCommands = Pick<FleetHost, 'send' | 'key' | 'inLane' | 'answerWentIn' | 'resumeAnswer' | 'stop' | 'freshView' | 'readScreen' | 'release'>;

/**
 * The machine's side: what the worker logic calls when input goes into a pane, and to deliver or
 * refuse a request (actors/worker-logic.ts).
 */
export type RequestDelivery = Pick<WorkerRuntime, 'inputGoing' | 'deliverText' | 'deliverKey' | 'refuse'>;

export function createWorkerCommands(d: WorkerCommandsDeps): { commands: WorkerCommands; delivery: RequestDelivery } {
  const { registry: r, clock, ports } = d;
  const requests = new Requests();
  const lanes = createInputLanes();

  /** Input into the pane: a turn-end word from before it is about an earlier turn (witness.ts). */
  const inputGoing = (id: string): void => {
    const record = r.records.get(id);
    if (record) onInput(record.witness, clock.now());
  };

  async function command(id: string, make: (requestId: number) => WorkerEvent): Promise<WorkerView> {
    const v = r.requireWorker(id);
    if (v.condition === 'gone') throw new RefusedError('worker-not-running', `worker ${id} is ${v.stage}; it takes no input.`, { id, stage: v.stage });
    const { requestId, done } = requests.open();
    r.route(id, make(requestId));
    // The machine answers synchronously (deliver or refuse); silence means no state took it.
    requests.failIfUnanswered(requestId, refusalError({ id, requestId, code: 'not-accepting-input', box: '', kind: '' }, v.stage));
    await done;
    return r.view(id)!;
  }

  const delivery: RequestDelivery = {
    inputGoing,
    deliverText: (p) => {
      // A decision's answer: its Enter marked first, as the first prompt's (decision-resume.ts).
      const mark = p.decision !== undefined && ports.markDecision ? { decision: p.decision, beforeEnter: () => ports.markDecision!(r.intentOf(p.id), p.paneId, p.decision!) } : {};
      requests.settle(p.requestId, ports.sendText(r.hostOf(p.id), p.paneId, p.text, { allowNonEmptyBox: p.allowNonEmptyBox, label: p.id, agent: r.readerOfId(p.id), ...mark }));
    },
    deliverKey: (p) =>
      requests.settle(p.requestId, ports.sendKey(r.hostOf(p.id), p.paneId, p.key, { allowNonEmptyBox: p.allowNonEmptyBox, agent: r.readerOfId(p.id) })),
    refuse: (p) => requests.fail(p.requestId, refusalError(p)),
  };

  const commands: WorkerCommands = {
    inLane: (id, fn) => lanes.run(id, fn),
    send: (id, text, opts = {}) =>
      command(id, (requestId) => ({ type: 'SEND', text, allowNonEmptyBox: opts.allowNonEmptyBox === true, requestId, ...(opts.decision !== undefined && { decision: opts.decision }) })),
    key: (id, key, opts = {}) =>
      command(id, (requestId) => ({ type: 'KEYS', key, allowNonEmptyBox: opts.allowNonEmptyBox === true, requestId })),

    answerWentIn(id) {
      r.route(id, { type: 'ANSWER_IN', at: clock.now() });
    },

    async resumeAnswer(id, answer, key) {
      const v = r.requireWorker(id);
      if (!v.paneId || v.live !== true) return 'none';
      const terminal = r.hostOf(id);
      const agent = r.readerOfId(id);
      const paneId = v.paneId;
      const resumed = await resumeAnswer({
        host: terminal, paneId, agent,
        marked: ports.decisionMarked?.(r.intentOf(id), paneId) === key,
        press: async (k) => {
          inputGoing(id);
          await ports.sendKey(terminal, paneId, k, { allowNonEmptyBox: true, agent });
        },
      }, answer);
      // The machine guards the next send on its own reading: it must have seen the cleared box.
      if (resumed === 'rolled-back') await waitFor(r, id, (x) => x.promptBox === '', { timeoutMs: 5000 });
      return resumed;
    },

    async stop(id, opts = {}) {
      const v = r.requireWorker(id);
      if (v.condition !== 'gone') r.route(id, { type: 'STOP', at: clock.now(), timeoutMs: opts.timeoutMs ?? 30_000 });
      const end = await r.until(id, (x) => x.condition === 'gone' || x.condition === 'stuck');
      const paneReusable = end.marks.includes('exited-cleanly');
      if (paneReusable && end.paneId) {
        // The agent left by /exit: the pane (kept by remain-on-exit) has nothing more to say.
        await r.hostOf(id).close(end.paneId).catch((err) => d.log?.({ msg: 'closing pane failed', id, err: String(err) }));
      }
      return { view: end, exitCode: end.exitCode, paneReusable };
    },

    async freshView(id, boundMs = FRESH_READ_MS) {
      const feed = r.records.get(id)?.feed;
      if (feed) {
        feed.requestRead();
        let timer: unknown;
        await Promise.race([feed.settled(), new Promise<void>((res) => (timer = clock.setTimeout(res, boundMs)))]);
        clock.clearTimeout(timer);
      }
      return r.view(id);
    },

    async readScreen(id, opts = {}) {
      const v = r.requireWorker(id);
      if (!v.paneId) return { ok: false, error: `worker ${id} has no pane yet (stage ${v.stage})` };
      const h = r.hostOf(id);
      // Never past the host's bound: a stopped server makes the read "could not tell", not a hang.
      const silent = (reason: string) => ({ ok: false as const, error: `could not tell: ${reason}` });
      if (opts.scrollback) return d.answers.whileAnswering(h, h.readScrollback(v.paneId, opts.scrollback), silent);
      const res = await d.answers.whileAnswering(h, h.readVisible(v.paneId), silent);
      return res.ok ? { ok: true, text: res.screen.lines.map((l) => l.text).join('\n') } : res;
    },

    async release(id) {
      const v = r.requireWorker(id);
      if (v.condition !== 'gone') throw new RefusedError('worker-not-finished', `worker ${id} is ${v.stage}; stop it first (hand stop ${id}).`, { id, stage: v.stage });
      let paneClosed = false;
      if (v.paneId && r.terminalFor(r.intentOf(id))) {
        await r.hostOf(id).close(v.paneId);
        paneClosed = true;
      }
      r.forget(id);
      return { paneClosed };
    },
  };
  return { commands, delivery };
}
