/**
 * A worker's places for a test of its seed, in a fresh temp dir removed after each test: the
 * person's home, the worker's worktree (a real git repository) and its brief folder where the
 * state directory keeps it (`<home>/.kingshand/workers/w1`). The seed tests each made these
 * again by hand.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDirs } from './use-temp-dir.ts';

export interface WorkerPlaces {
  /** The temp dir holding them all, for anything else a test needs beside them. */
  root: string;
  home: string;
  worktree: string;
  briefDir: string;
  stateDir: string;
}

/** Call once at the top of a test file; the returned function makes a fresh set each time. */
export function useWorkerPlaces(label: string): () => WorkerPlaces {
  const tempDir = useTempDirs();
  return () => {
    const root = tempDir(label);
    const home = join(root, 'home');
    const worktree = join(root, 'repo');
    const stateDir = join(home, '.kingshand');
    const briefDir = join(stateDir, 'workers', 'w1');
    for (const d of [home, worktree, briefDir]) mkdirSync(d, { recursive: true });
    execFileSync('git', ['init', '-q', worktree]);
    return { root, home, worktree, briefDir, stateDir };
  };
}
