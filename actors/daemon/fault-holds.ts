/**
 * Fault-injection holds for the fault suite (tests/faults, docs/fault-suite.md): with
 * `KH_FAULT_HOLD=<id>=<state>,…` in the daemon's environment, worker <id> stops inside <state>
 * — the port that state waits on never answers — so a test can kill the daemon (or the tmux
 * server) while the worker is there, deterministically. Only states that wait on a port can be
 * held; `briefing.sending` types the first prompt and holds before its Enter, the window in
 * which a daemon kill used to orphan the agent. Unset (always, outside tests), nothing changes.
 * A restarted daemon is started without the variable, so a held worker resumes.
 */
import type { TerminalHost } from '../../io/terminal/types.ts';
import type { RealPorts } from './real-ports.ts';

export const FAULT_HOLD_ENV = 'KH_FAULT_HOLD';
export const HOLDABLE_STATES = ['preparing', 'seeding', 'spawning', 'briefing.sending'] as const;
export type HoldableState = (typeof HOLDABLE_STATES)[number];

const never = () => new Promise<never>(() => {});

/** `id=state,…` → id → state; unknown states are ignored (said in the log by the caller). */
export function parseFaultHolds(raw: string | undefined): Map<string, HoldableState> {
  const holds = new Map<string, HoldableState>();
  for (const part of (raw ?? '').split(',')) {
    const [id, state] = part.split('=');
    if (id && state && (HOLDABLE_STATES as readonly string[]).includes(state)) holds.set(id, state as HoldableState);
  }
  return holds;
}

/** Wraps the ports and hosts in place so that each held worker stops in its state. */
export function applyFaultHolds(holds: Map<string, HoldableState>, ports: RealPorts, hosts: Partial<Record<string, TerminalHost>>, log: (obj: Record<string, unknown>, msg: string) => void): void {
  if (holds.size === 0) return;
  log({ holds: Object.fromEntries(holds) }, 'fault holds armed (tests only)');
  const held = (id: string, state: HoldableState) => holds.get(id) === state;
  const paneOwner = new Map<string, string>();
  const { prepareWorktree, seedAgent, sendText } = ports;
  ports.prepareWorktree = (intent, signal) => (held(intent.id, 'preparing') ? never() : prepareWorktree(intent, signal));
  ports.seedAgent = (intent, signal) => (held(intent.id, 'seeding') ? never() : seedAgent(intent, signal));
  ports.sendText = async (host, paneId, text, o) => {
    const id = paneOwner.get(paneId);
    if (id === undefined || !held(id, 'briefing.sending')) return sendText(host, paneId, text, o);
    await host.typeText(paneId, text);
    return never();
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
