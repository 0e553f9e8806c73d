/**
 * Fault-injection holds for the fault suite (tests/faults, docs/fault-suite.md): with
 * `KH_FAULT_HOLD=<id>=<state>,…` in the daemon's environment, worker <id> stops inside <state>
 * — the port that state waits on never answers — so a test can kill the daemon (or the tmux
 * server) while the worker is there, deterministically. Only states that wait on a port can be
 * held; `briefing.sending` types the first prompt and holds before its Enter, the window in
 * which a daemon kill used to orphan the agent. The report's check and read, and the steps of a
 * stop that press a key or type /exit, are held the same way (docs/fault-suite.md). Unset (always, outside tests), nothing changes.
 * A restarted daemon is started without the variable, so a held worker resumes.
 *
 * A decision's delivery (issue 43) has four points of its own, not states of the machine: the
 * answer recorded and nothing typed (`decision.answered`), typed and not yet marked
 * (`decision.typed`), marked and its Enter not pressed (`decision.marked`), and its Enter pressed
 * with the delivery not yet recorded (`decision.entered`).
 */
import type { TerminalHost } from '../io/terminal/types.ts';
import type { RealPorts } from '../io/ports/real-ports.ts';

export const FAULT_HOLD_ENV = 'KH_FAULT_HOLD';
export const HOLDABLE_STATES = [
  'preparing', 'seeding', 'spawning', 'briefing.sending',
  // The report's check and read (issue 43): the ports never answer.
  'settled.checking', 'reporting',
  // A stop's steps that wait on a port: the Escape of a menu or of a running turn never answers,
  // the /exit is never typed (exiting) or is swallowed, so the stop deadline runs out (timedOut).
  'teardown.escaping', 'teardown.interrupting', 'teardown.exiting', 'teardown.timedOut',
] as const;
export type HoldableState = (typeof HOLDABLE_STATES)[number];
export const DELIVERY_HOLDS = ['decision.answered', 'decision.typed', 'decision.marked', 'decision.entered'] as const;
export type DeliveryHold = (typeof DELIVERY_HOLDS)[number];
export type HoldPoint = HoldableState | DeliveryHold;
const HOLD_POINTS: readonly string[] = [...HOLDABLE_STATES, ...DELIVERY_HOLDS];

const never = () => new Promise<never>(() => {});

/** `id=state,…` → id → state; unknown states are ignored (said in the log by the caller). */
export function parseFaultHolds(raw: string | undefined): Map<string, HoldPoint> {
  const holds = new Map<string, HoldPoint>();
  for (const part of (raw ?? '').split(',')) {
    const [id, state] = part.split('=');
    if (id && state && HOLD_POINTS.includes(state)) holds.set(id, state as HoldPoint);
  }
  return holds;
}

/** Wraps the ports and hosts in place so that each held worker stops in its state. */
export function applyFaultHolds(holds: Map<string, HoldPoint>, ports: RealPorts, hosts: Partial<Record<string, TerminalHost>>, log: (obj: Record<string, unknown>, msg: string) => void): void {
  if (holds.size === 0) return;
  log({ holds: Object.fromEntries(holds) }, 'fault holds armed (tests only)');
  const held = (id: string, state: HoldPoint) => holds.get(id) === state;
  const paneOwner = new Map<string, string>();
  const { prepareWorktree, seedAgent, sendText, sendKey, reportExists, readReport } = ports;
  ports.prepareWorktree = (intent, signal) => (held(intent.id, 'preparing') ? never() : prepareWorktree(intent, signal));
  ports.seedAgent = (intent, signal) => (held(intent.id, 'seeding') ? never() : seedAgent(intent, signal));
  ports.reportExists = (path, intent) => (intent && held(intent.id, 'settled.checking') ? never() : reportExists(path, intent));
  if (readReport) ports.readReport = (path, intent) => (intent && held(intent.id, 'reporting') ? never() : readReport(path, intent));
  ports.sendKey = async (host, paneId, key, o) => {
    const id = paneOwner.get(paneId);
    // A stop's Escape (of a menu, or of a running turn) that never answers.
    if (id !== undefined && key === 'escape' && (held(id, 'teardown.escaping') || held(id, 'teardown.interrupting'))) return never();
    return sendKey(host, paneId, key, o);
  };
  ports.sendText = async (host, paneId, text, o) => {
    const id = paneOwner.get(paneId);
    if (id !== undefined && o.teardown === true) {
      if (held(id, 'teardown.exiting')) return never();
      if (held(id, 'teardown.timedOut')) return; // swallowed: the agent never sees its /exit
    }
    if (id !== undefined && o.decision !== undefined) return deliveryHeld(holds.get(id), host, paneId, text, o);
    if (id === undefined || !held(id, 'briefing.sending')) return sendText(host, paneId, text, o);
    await host.typeText(paneId, text);
    return never();
  };
  /** A decision's answer, stopped at the worker's delivery point (if it has one). */
  const deliveryHeld = async (at: HoldPoint | undefined, host: TerminalHost, paneId: string, text: string, o: Parameters<RealPorts['sendText']>[3]): Promise<void> => {
    if (at === 'decision.answered') return never();
    if (at === 'decision.typed') {
      await host.typeText(paneId, text);
      return never();
    }
    if (at === 'decision.marked') {
      return sendText(host, paneId, text, { ...o, beforeEnter: async () => {
        await o.beforeEnter?.();
        await never();
      } });
    }
    await sendText(host, paneId, text, o);
    if (at === 'decision.entered') return never();
  };
  for (const host of Object.values(hosts)) {
    if (!host) continue;
    const createPane = host.createPane.bind(host);
    host.createPane = async (spec) => {
      if (held(spec.name, 'spawning')) return never();
      const pane = await createPane(spec);
      paneOwner.set(pane.paneId, spec.name);
      return pane;
    };
  }
}
