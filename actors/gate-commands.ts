/**
 * Person commands at the gates: approve, reject, and `hand land` opening the landing gate.
 * They travel as events into the worker's machine (the gate IS its state); each resolves with
 * the view where the machine comes to rest after the decision, so the caller learns the outcome.
 */
import { dispatchFailed, workerNotDone } from '../contract/refusals.ts';
import type { LandingSummary, WorkerEvent } from '../machines/worker.types.ts';
import type { Clock } from './ports.ts';
import { gateOf, noOpenGate } from './gates.ts';
import { landingAtRest } from './condition.ts';
import type { WorkerView } from './worker-view.ts';

export interface GateCommands {
  /** Approves the open gate: the brief (→ the worker is made) or the landing (→ landed, torn down). */
  approve(id: string, opts?: { acceptedAgentSettings?: string }): Promise<WorkerView>;
  /** Rejects the open gate with the person's reason (brief → `rejected`; landing → back to done). */
  reject(id: string, reason: string): Promise<WorkerView>;
  /** Opens the landing gate of a done worker with the gathered evidence; yolo lands at once. */
  openLanding(id: string, landing: Omit<LandingSummary, 'approvedBy' | 'openedAt'>, opts: { yolo: boolean }): Promise<WorkerView>;
}

export interface GateDeps {
  clock: Clock;
  requireWorker(id: string): WorkerView;
  route(id: string, event: WorkerEvent): void;
  until(id: string, accept: (v: WorkerView) => boolean): Promise<WorkerView>;
}

export function gateCommands(d: GateDeps): GateCommands {
  return {
    async approve(id, opts) {
      const v = d.requireWorker(id);
      const gate = gateOf(v.marks);
      if (!gate) throw noOpenGate(v);
      d.route(id, { type: 'APPROVE', at: d.clock.now(), ...(opts?.acceptedAgentSettings ? { acceptedAgentSettings: opts.acceptedAgentSettings } : {}) });
      if (gate === 'brief approval') {
        const out = await d.until(id, (x) => x.condition !== 'gate' && x.condition !== 'making');
        if (out.marks.includes('failed')) throw dispatchFailed(id, out.problem);
        return out;
      }
      return d.until(id, landingAtRest);
    },

    async reject(id, reason) {
      const v = d.requireWorker(id);
      if (!gateOf(v.marks)) throw noOpenGate(v);
      d.route(id, { type: 'REJECT', reason, at: d.clock.now() });
      return d.until(id, (x) => x.condition !== 'gate');
    },

    async openLanding(id, landing, { yolo }) {
      const v = d.requireWorker(id);
      if (!v.marks.includes('landable')) {
        throw workerNotDone(id, v.stage);
      }
      const at = d.clock.now();
      d.route(id, { type: 'LAND', landing: { ...landing, openedAt: at, approvedBy: null }, yolo, at });
      if (!yolo) return d.until(id, (x) => x.marks.includes('landing-gate'));
      return d.until(id, landingAtRest);
    },
  };
}
