/**
 * `hand daemon restore-db`: puts a database backup back when the state database was lost or
 * damaged (the daemon refuses to start and names this command). Runs without the daemon — it
 * cannot start — and holds the state directory's lock while it works, so no daemon starts
 * meanwhile. The damaged files are moved aside, never deleted.
 */
import { resolve } from 'node:path';
import { acquireHomeLock } from '../../persistence/home-lock.ts';
import { restoreDatabase, type RestoreResult } from '../../persistence/state-integrity.ts';
import { RefusedError } from '../../contract/errors.ts';
import type { HomePaths } from '../../contract/home.ts';

export function restoreDb(paths: HomePaths, from: string | undefined): RestoreResult {
  let lock;
  try {
    lock = acquireHomeLock(paths.home);
  } catch (err) {
    if (err instanceof RefusedError && err.code === 'home-locked') {
      throw new RefusedError('daemon-running', `a daemon is running on ${paths.home}; nothing was restored. Stop it first (hand daemon stop --home ${paths.home}), then run restore-db again.`, { home: paths.home });
    }
    throw err;
  }
  try {
    return restoreDatabase({ home: paths.home, db: paths.db }, from === undefined ? undefined : resolve(from));
  } finally {
    lock.release();
  }
}

export function restoreDbText(r: RestoreResult): string {
  const aside = r.movedAside.length ? `; the damaged files were moved aside: ${r.movedAside.join(', ')}` : '';
  return `restored ${r.db} from ${r.restoredFrom} (${r.workers} workers, ${r.projects} projects)${aside}. The next hand command starts the daemon on it.`;
}
