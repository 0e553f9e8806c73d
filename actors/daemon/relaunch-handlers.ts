/** The daemon side of `hand relaunch` (actors/daemon/relaunch.ts does the work). */
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { relaunchWorker } from './relaunch.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { PlaceOf } from './landing.ts';

export function relaunchHandlers(deps: {
  store: FleetStore;
  fleet: FleetHostApi;
  rememberCallerEnv(id: string, env: Record<string, string>, add?: Record<string, string>): void;
  placeOf?: PlaceOf;
  sandbox?(): SandboxAvailability;
}): Pick<MethodTable, 'relaunch'> {
  return {
    // Params checked at the edge (param-parsers.ts): a missing id, a note that is not text, a bad --stall.
    async relaunch({ id, note, force, stallMs, env, envAdd }) {
      // A far worker's git (its progress note's log and status) runs on its host.
      const row = deps.store.getWorker(id);
      return onHost(row ? (deps.placeOf?.(row) ?? null) : null, () => relaunchWorker(id, { note, force: force === true, stallMs, env, envAdd }, deps));
    },
  };
}
