/**
 * Fault injection for the calibration's own tests (as KH_FAULT_HOLD is for the fault suite): with
 * `KH_CALIBRATE_MISREAD=<agent>:<state>=<state>,…` in the daemon's environment, that agent's
 * screen reader is handed to the calibration wrapped so that it reads one state as another
 * (`codex:working=idle`: a running turn read as an idle, empty box) — the misreading a release
 * that changed its screens causes — so a test can show the calibration fail loudly through the
 * whole CLI. Unset (always, outside tests), the agent's own reader is used unchanged.
 */
import type { AgentState, ScreenReading } from '../../contract/screen-reading.ts';
import { AGENTS, type AgentName } from '../../contract/vocabulary.ts';
import type { ScreenReader } from './drive.ts';

export const MISREAD_ENV = 'KH_CALIBRATE_MISREAD';

const STATES: readonly AgentState[] = ['working', 'idle', 'blocked', 'exited', 'unknown'];

export type Misreadings = Map<AgentName, Map<AgentState, AgentState>>;

/** `agent:from=to,…`; parts that name no agent or state are ignored. */
export function parseMisreadings(raw: string | undefined): Misreadings {
  const out: Misreadings = new Map();
  for (const part of (raw ?? '').split(',')) {
    const m = /^([a-z]+):([a-z]+)=([a-z]+)$/.exec(part.trim());
    if (!m || !(AGENTS as readonly string[]).includes(m[1]!) || !STATES.includes(m[2] as AgentState) || !STATES.includes(m[3] as AgentState)) continue;
    const agent = m[1] as AgentName;
    const map = out.get(agent) ?? new Map<AgentState, AgentState>();
    map.set(m[2] as AgentState, m[3] as AgentState);
    out.set(agent, map);
  }
  return out;
}

/** A reading of state `to` where `r` said `from`; an idle one with an empty box and nothing awaited. */
function readAs(r: ScreenReading, to: AgentState): ScreenReading {
  if (to === 'idle') return { ...r, state: 'idle', awaitingInput: false, blockedReason: null, promptBox: '', promptBoxKind: 'empty', agentError: null, dialog: null };
  return { ...r, state: to };
}

/** `reader`, reading each state of `map` as the state it names. */
export function misreading(reader: ScreenReader, map: ReadonlyMap<AgentState, AgentState>): ScreenReader {
  return {
    analyse(screen) {
      const r = reader.analyse(screen);
      const to = map.get(r.state);
      return to === undefined ? r : readAs(r, to);
    },
  };
}
