/**
 * The worker machine with its placeholders filled: each named actor/action becomes a call
 * through the ports and the terminal host. Kept free of bookkeeping: the fleet host passes in
 * how to find a worker's intent and host, and where person-command results go.
 */
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { workerMachine } from '../machines/worker.machine.ts';
import type { DeadlineName, DeliverKeyParams, DeliverTextParams, LandingOutcome, LandingSummary, RefuseParams } from '../machines/worker.types.ts';
import type { Key, PaneInfo, TerminalHost } from '../io/terminal/types.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { Clock, LandingPort } from './ports.ts';
import type { WorkerPorts } from '../io/ports/worker-ports.ts';
import { RefusedError } from '../contract/errors.ts';
import { setTimerAt } from '../io/time/long-timer.ts';
import { resumeMarkedPrompt, sendFirstPrompt } from './first-prompt-resume.ts';
import { screenReaderOf } from '../io/agent/profiles/index.ts';

export interface WorkerRuntime {
  ports: WorkerPorts;
  clock: Clock;
  intentOf(id: string): WorkerIntent;
  hostOf(id: string): TerminalHost;
  /**
   * True (once) for a worker restored in `spawning`: the previous daemon may have made its pane
   * already, so one named after the worker is looked for before another is created.
   */
  resumingSpawn(id: string): boolean;
  /** A pane now belongs to the worker: start feeding its events in. */
  paneCreated(id: string, paneId: string): void;
  /** The landing port (absent = this fleet cannot land: the landing is refused, nothing happens). */
  landing?: LandingPort;
  log?(obj: Record<string, unknown>): void;
  /** Something is about to be typed or pressed into the worker's pane (the witness dates its words by it). */
  inputGoing?(id: string): void;
  /** Person commands: the machine accepted them (deliver) or refused them (refuse). */
  deliverText(p: DeliverTextParams): void;
  deliverKey(p: DeliverKeyParams): void;
  refuse(p: RefuseParams): void;
}

/** Arms one absolute deadline on the injected clock; re-run on restore with the same `at`. */
export function deadlineActor(clock: Clock) {
  return fromCallback<EventObject, { at: number; name: DeadlineName }>(({ input, sendBack }) => {
    // Chained: a stall threshold of weeks is longer than one Node timer holds (io/time/long-timer.ts).
    return setTimerAt(input.at, () => sendBack({ type: 'DEADLINE', name: input.name, at: clock.now() }), clock);
  });
}

/**
 * The live pane named `name` (PaneInfo.name = worker id), re-attached, or null when there is
 * none. A dead one is closed first (tmux would refuse a second pane of the same name). A list
 * that fails is could-not-tell: spawning fails rather than risk a second agent in the worktree.
 */
export async function paneNamed(host: TerminalHost, name: string): Promise<PaneInfo | null> {
  const listed = await host.list();
  if (!listed.ok) throw new Error(`cannot tell whether a pane named ${name} exists: ${listed.error}`);
  const found = listed.panes.find((p) => p.name === name);
  if (!found) return null;
  if (found.alive === false) {
    await host.close(found.paneId);
    return null;
  }
  return (await host.attach(found.paneId)) ?? null;
}

/** Closes a dead pane named `name` (an earlier worker of the same id that exited); never a live one. */
async function closeDeadPaneNamed(host: TerminalHost, name: string): Promise<null> {
  const listed = await host.list().catch(() => null);
  const dead = listed?.ok ? listed.panes.find((p) => p.name === name && p.alive === false) : undefined;
  if (dead) await host.close(dead.paneId).catch(() => {});
  return null;
}

export function provideWorker(rt: WorkerRuntime) {
  const { ports, clock } = rt;
  return workerMachine.provide({
    actors: {
      prepareWorktree: fromPromise<void, { id: string }>(({ input, signal }) => ports.prepareWorktree(rt.intentOf(input.id), signal)),
      seedAgent: fromPromise<void, { id: string }>(({ input, signal }) => ports.seedAgent(rt.intentOf(input.id), signal)),
      spawnPane: fromPromise<{ paneId: string; at: number }, { id: string }>(async ({ input }) => {
        const intent = rt.intentOf(input.id);
        const host = rt.hostOf(input.id);
        const spec = ports.launchSpec(intent);
        // A fresh dispatch of an id whose earlier worker exited: its dead pane (kept by
        // remain-on-exit) still holds the name, and tmux refuses a second session of it.
        const adopted = rt.resumingSpawn(input.id) ? await paneNamed(host, intent.id) : await closeDeadPaneNamed(host, intent.id);
        // A new pane runs a new agent: no earlier first prompt or answer of this id went into it.
        if (!adopted) ports.clearSubmissionMarks?.(intent);
        const pane = adopted ?? (await host.createPane({ name: intent.id, cwd: intent.worktree, env: spec.env, argv: spec.argv }));
        rt.paneCreated(input.id, pane.paneId);
        return { paneId: pane.paneId, at: clock.now() };
      }),
      submitPrompt: fromPromise<{ at: number; alreadySent?: boolean }, { id: string; paneId: string; text: string; allowNonEmptyBox: boolean; teardown?: boolean }>(
        async ({ input }) => {
          const host = rt.hostOf(input.id);
          const intent = rt.intentOf(input.id);
          const first = input.teardown !== true;
          const agent = screenReaderOf(intent.agent, intent.agentVersion);
          // An earlier daemon may have sent it (its transitions lost with it): never typed twice.
          if (first && ports.firstPromptMarked?.(intent, input.paneId)) {
            const resumed = await resumeMarkedPrompt(host, input.paneId, input.text, agent, () => ports.sendKey(host, input.paneId, 'enter', { allowNonEmptyBox: true }));
            rt.log?.({ msg: resumed === 'sent' ? 'first prompt was already submitted: not typed again' : 'first prompt found typed but unsubmitted: pressing Enter', id: input.id });
            return { at: clock.now(), alreadySent: resumed === 'sent' };
          }
          rt.inputGoing?.(input.id);
          const beforeEnter = first && ports.markFirstPrompt ? () => ports.markFirstPrompt!(intent, input.paneId) : undefined;
          await sendFirstPrompt(
            (o) => ports.sendText(host, input.paneId, input.text, { ...o, label: input.id, teardown: !first, agent, ...(beforeEnter ? { beforeEnter } : {}) }),
            () => ports.sendKey(host, input.paneId, 'enter', { allowNonEmptyBox: true }),
            input.text,
            input.allowNonEmptyBox,
            (box) => rt.log?.({ msg: 'first prompt found typed but unsubmitted: pressing Enter', id: input.id, chars: box.length }),
          );
          return { at: clock.now() };
        },
      ),
      pressKey: fromPromise<{ at: number }, { id: string; paneId: string; key: Key }>(async ({ input }) => {
        // Keys the machine presses itself are chosen by its own guards: Escape and ctrl-u submit
        // nothing, and the one Enter re-submits our own first prompt. The glass check is not for them.
        rt.inputGoing?.(input.id);
        await ports.sendKey(rt.hostOf(input.id), input.paneId, input.key, { allowNonEmptyBox: true });
        return { at: clock.now() };
      }),
      checkReport: fromPromise<{ exists: boolean }, { id: string; path: string }>(async ({ input }) => ({
        exists: await ports.reportExists(input.path, rt.intentOf(input.id)),
      })),
      readReport: fromPromise<{ waitingOn: string | null }, { id: string; path: string }>(async ({ input }) =>
        ports.readReport ? ports.readReport(input.path, rt.intentOf(input.id)) : { waitingOn: null },
      ),
      landWork: fromPromise<LandingOutcome, { id: string; landing: LandingSummary }>(async ({ input, signal }) => {
        if (!rt.landing) throw new RefusedError('landing-unavailable', `this daemon cannot land workers; nothing was landed for ${input.id}.`, { id: input.id });
        const out = await rt.landing.land(rt.intentOf(input.id), input.landing, signal);
        return { ...out, at: clock.now() };
      }),
      cleanUpAfterLanding: fromPromise<{ problem: string | null }, { id: string; paneId: string | null }>(async ({ input }) => {
        // The agent has left (teardown saw it exit): its pane, kept by remain-on-exit, goes first.
        if (input.paneId) {
          await rt.hostOf(input.id).close(input.paneId).catch((err) => rt.log?.({ msg: 'closing pane after landing failed', id: input.id, err: String(err) }));
        }
        if (!rt.landing) return { problem: 'no landing port: the worktree was kept' };
        return rt.landing.removeWorktree(rt.intentOf(input.id));
      }),
      deadline: deadlineActor(clock),
    },
    actions: {
      deliverText: (_, params: DeliverTextParams) => {
        rt.inputGoing?.(params.id);
        rt.deliverText(params);
      },
      deliverKey: (_, params: DeliverKeyParams) => {
        rt.inputGoing?.(params.id);
        rt.deliverKey(params);
      },
      refuse: (_, params: RefuseParams) => rt.refuse(params),
    },
  });
}
