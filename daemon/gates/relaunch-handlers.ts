/** The daemon side of `hand relaunch` (daemon/gates/relaunch.ts does the work). */
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { relaunchWorker, type RelaunchDeps } from './relaunch.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { PlaceOf } from './landing.ts';
import { homedir } from 'node:os';
import { readNoteFile } from '../../io/brief/read-paths.ts';

export function relaunchHandlers(deps: {
  store: FleetStore;
  fleet: FleetHostApi;
  rememberCallerEnv(id: string, env: Record<string, string>, add?: Record<string, string>): void;
  placeOf?: PlaceOf;
  sandbox?(): SandboxAvailability;
  /** kingshand's state directory: a note file there is refused as a read path there is. */
  stateDir?: string;
  /** The workers' agent sessions (session-keeper.ts), for --resume. */
  sessions?: RelaunchDeps['sessions'];
}): Pick<MethodTable, 'relaunch'> {
  return {
    // Params checked at the edge (gate-methods.ts): a missing id, a note that is not text, a bad --stall.
    async relaunch({ id, note: text, noteFile, force, stallMs, env, envAdd, resume }) {
      // A note file is handed to the worker as a read path is (its text goes into the progress
      // note): the same checks, before anything is done. The daemon's HOME and the caller's may
      // differ: the credentials under both are denied.
      const note = noteFile === undefined ? text : readNoteFile(noteFile, { homes: [homedir(), ...(env?.HOME ? [env.HOME] : [])], ...(deps.stateDir ? { stateDir: deps.stateDir } : {}) });
      // A far worker's git (its progress note's log and status) runs on its host.
      const row = deps.store.getWorker(id);
      return onHost(row ? (deps.placeOf?.(row) ?? null) : null, () => relaunchWorker(id, { note, force: force === true, stallMs, env, envAdd, ...(resume === true && { resume: true }) }, deps));
    },
  };
}
