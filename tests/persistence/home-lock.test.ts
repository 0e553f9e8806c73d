import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { acquireHomeLock, readLockHolder, type HomeLock } from '../../persistence/home-lock.ts';
import { RefusedError } from '../../contract/errors.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const HOLDER = fileURLToPath(new URL('./fixtures/hold-home-lock.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Registered before the cleanups below, so its teardown runs after theirs (vitest runs after-hooks as a stack).
const home = useTempDirs().bind(null, 'home');
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function hold(lock: HomeLock): HomeLock {
  cleanups.push(() => lock.release());
  return lock;
}

function refusal(fn: () => unknown): RefusedError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RefusedError);
    return e as RefusedError;
  }
  throw new Error('expected the lock to be refused');
}

/** Starts a child that takes the lock; resolves once it says it holds it. */
function childHolding(dir: string): Promise<{ child: ChildProcess; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`timed out after 20000 ms waiting for the child to take the lock; stderr: ${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /locked (\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, pid: Number(m[1]) });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lock holder exited early (code ${code}): ${err}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out after 10000 ms waiting for the killed holder to exit')), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('one daemon per state directory', () => {
  it('a second holder in the same process is refused, naming the holder', () => {
    const dir = home();
    hold(acquireHomeLock(dir));
    const err = refusal(() => acquireHomeLock(dir));
    expect(err.code).toBe('home-locked');
    expect(err.message).toContain(`pid ${process.pid}`);
    expect(err.message).toContain(dir);
  });

  it('a released lock can be taken again, and release is idempotent', () => {
    const dir = home();
    const first = acquireHomeLock(dir);
    first.release();
    first.release();
    expect(readLockHolder(dir)).toBeNull();
    const second = hold(acquireHomeLock(dir));
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
    second.release();
  });

  it('another process holding the lock makes this one refuse; once it is SIGKILLed the lock is free', async () => {
    const dir = home();
    const { child, pid } = await childHolding(dir);
    const err = refusal(() => acquireHomeLock(dir));
    expect(err.details.holderPid).toBe(pid);
    child.kill('SIGKILL');
    await exited(child);
    // the dead holder's pid file is still there: it names, it does not lock
    expect(readLockHolder(dir)?.pid).toBe(pid);
    const mine = hold(acquireHomeLock(dir));
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
    mine.release();
  });
});
