/** The daemon side of `hand discard` (actors/daemon/discard.ts does the work). */
import { UsageError } from '../../contract/errors.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../fleet-api.ts';
import type { Handler } from './server.ts';
import { discardAllFinished, discardWorker } from './discard.ts';

export function discardHandlers(deps: { store: FleetStore; fleet: FleetHostApi; workersDir: string }): Record<string, Handler> {
  return {
    async discard(params) {
      const o = { deleteBranch: params.deleteBranch === true, discardCommits: params.discardCommits === true, forget: params.forget === true };
      const id = typeof params.id === 'string' ? params.id : '';
      if (params.allFinished === true) {
        if (id) throw new UsageError('bad-discard', 'give a worker id or --all-finished, not both.');
        return { all: true, ...(await discardAllFinished(o, deps)) };
      }
      if (!id) throw new UsageError('bad-discard', 'which worker? hand discard <id>, or hand discard --all-finished.');
      return discardWorker(id, o, deps);
    },
  };
}
