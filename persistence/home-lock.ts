/**
 * One daemon per state directory. The lock is an exclusive SQLite lock on `<home>/daemon.lock`,
 * i.e. an OS file lock (fcntl on POSIX, LockFileEx on Windows) that the kernel drops when the
 * holder dies, however it dies. A SIGKILLed daemon therefore never blocks the next start, and
 * unlike a pid file there is no stale-pid guess to get wrong when the pid is reused.
 * `<home>/daemon.pid` only names the holder in the refusal message; it is not the lock.
 *
 * Caveat (POSIX): closing ANY descriptor of the lock file in the holding process drops fcntl
 * locks, so nothing else may open daemon.lock in the daemon; SQLite itself handles its own fds.
 */
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { ensurePrivateFile, writePrivateFile } from '../io/fs/private-files.ts';
import { join } from 'node:path';
import { RefusedError } from '../contract/errors.ts';
import { isDiskFullError, isIoError, isLockedError } from '../contract/store-errors.ts';
import { pidAlive, readLockHolder } from './lock-holder.ts';

export interface HomeLock {
  readonly home: string;
  readonly lockPath: string;
  release(): void;
}

export { readLockHolder, type LockHolder } from './lock-holder.ts';

/**
 * Why the lock could not be taken, and the true fix. Deleting the lock file is advised only
 * when SQLite says the file is damaged and no process named in it is alive: after a full disk
 * the advice to delete daemon.lock was given while the cause was the disk (issue 25 item 1).
 */
function lockFailed(home: string, lockPath: string, err: unknown): RefusedError {
  const code = (err as { code?: string })?.code ?? '';
  const message = (err as Error)?.message ?? String(err);
  if (isDiskFullError(err) || isIoError(err)) {
    return new RefusedError('state-disk-full', `cannot lock the state directory ${home}: the disk under it is full (${message}). Free space there (df -h ${home}) and run the command again; nothing needs deleting in ${home}.`, { home, lockPath, sqliteCode: code });
  }
  const holder = readLockHolder(home);
  if (holder && pidAlive(holder.pid)) {
    return new RefusedError('home-lock-failed', `cannot lock the state directory ${home} through ${lockPath}: ${message}. A daemon (pid ${holder.pid}) may still hold it: stop it with hand daemon stop --home ${home} (or kill ${holder.pid}); do not delete the lock while it runs.`, { home, lockPath, holderPid: holder.pid, sqliteCode: code });
  }
  const damaged = code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
  return new RefusedError('home-lock-failed', damaged
    ? `cannot lock the state directory ${home}: ${lockPath} is damaged (${message}) and no daemon holds it. Delete ${lockPath} (it holds only the lock) and run the command again.`
    : `cannot lock the state directory ${home} through ${lockPath}: ${message}. Check the directory's permissions (ls -ld ${home}).`, { home, lockPath, sqliteCode: code });
}

export function acquireHomeLock(home: string, pid: number = process.pid): HomeLock {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const lockPath = join(home, 'daemon.lock');
  const pidPath = join(home, 'daemon.pid');
  ensurePrivateFile(lockPath);
  const db = new Database(lockPath, { timeout: 0 });
  try {
    // In EXCLUSIVE locking mode the first write takes the exclusive lock and keeps it until close.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since INTEGER NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(pid, Date.now());
  } catch (err) {
    db.close();
    if (!isLockedError(err)) throw lockFailed(home, lockPath, err);
    const holder = readLockHolder(home);
    const who = holder ? `another kingshand daemon (pid ${holder.pid})` : 'another kingshand daemon';
    throw new RefusedError(
      'home-locked',
      `${who} already holds the state directory ${home}; talk to that daemon, stop it (hand daemon stop --home ${home}), or use another --home.`,
      { home, holderPid: holder?.pid ?? null },
    );
  }
  const since = Date.now();
  writePrivateFile(pidPath, `${JSON.stringify({ pid, since })}\n`);
  let released = false;
  return {
    home,
    lockPath,
    release() {
      if (released) return;
      released = true;
      if (readLockHolder(home)?.pid === pid) rmSync(pidPath, { force: true });
      db.close();
    },
  };
}
