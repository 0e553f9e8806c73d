/** The daemon side of `hand discard` (daemon/gates/discard.ts does the work). */
import { UsageError } from '../../contract/errors.ts';
import type { DiscardedWorker, DiscardParams } from '../../contract/methods.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import { discardWorker } from './discard.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { PlaceOf } from './landing.ts';

/**
 * One worker's discard, before the rules around it (gate-methods.ts): `--all-finished` is the table's
 * loop over this (cross-rules.ts discardAllButParked), which leaves the parked alone.
 */
export function discardHandlers(deps: { store: FleetStore; fleet: FleetHostApi; workersDir: string; placeOf?: PlaceOf }): { discard(params: DiscardParams): Promise<DiscardedWorker> } {
  return {
    async discard(params) {
      const o = { deleteBranch: params.deleteBranch === true, discardCommits: params.discardCommits === true, forget: params.forget === true };
      if (!params.id) throw new UsageError('bad-discard', 'which worker? hand discard <id>, or hand discard --all-finished.');
      // A far worker's worktree and branch are on its host: every git call of the discard runs there.
      const row = deps.store.getWorker(params.id);
      return onHost(row ? (deps.placeOf?.(row) ?? null) : null, () => discardWorker(params.id!, o, deps));
    },
  };
}
