/** The daemon side of `hand relaunch` (actors/daemon/relaunch.ts does the work). */
import { UsageError } from '../../contract/errors.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../fleet-api.ts';
import type { Handler } from './server.ts';
import { relaunchWorker } from './relaunch.ts';
import { positiveParam } from './params.ts';

const strings = (v: unknown): Record<string, string> | undefined => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
};

export function relaunchHandlers(deps: {
  store: FleetStore;
  fleet: FleetHostApi;
  rememberCallerEnv(id: string, env: Record<string, string>, add?: Record<string, string>): void;
}): Record<string, Handler> {
  return {
    async relaunch(params) {
      const id = typeof params.id === 'string' ? params.id : '';
      if (!id) throw new UsageError('bad-request', 'which worker? hand relaunch <id> [--note <text|file>] [--force]', { key: 'id' });
      if (params.note !== undefined && typeof params.note !== 'string') throw new UsageError('bad-request', '--note takes text or a file path.', { key: 'note' });
      // the same bounds as dispatch's --stall (params.ts): a bad value is refused, never ignored
      const stallMs = params.stallMs === undefined ? undefined : positiveParam(params, 'stallMs', 0);
      return relaunchWorker(id, { note: params.note as string | undefined, force: params.force === true, stallMs, env: strings(params.env), envAdd: strings(params.envAdd) }, deps);
    },
  };
}
