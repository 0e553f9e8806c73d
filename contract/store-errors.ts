/**
 * What a failed SQLite (or file) write says about the state directory, read once for every
 * place that must tell: the daemon's commit queue (keep and retry), the wire (refuse the request
 * with the reason), the home lock and its probe (held by another, or a full disk).
 */

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/** Another connection holds the lock: the same write succeeds once it lets go. */
export function isLockedError(err: unknown): boolean {
  const code = codeOf(err);
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

/** The disk under the database is full (SQLite's own code, or the OS's ENOSPC). */
export function isDiskFullError(err: unknown): boolean {
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || /database or disk is full|ENOSPC/.test(message);
}

/** SQLite could not read or write its files (on a full disk it is often this, not SQLITE_FULL). */
export function isIoError(err: unknown): boolean {
  return codeOf(err).startsWith('SQLITE_IOERR');
}
