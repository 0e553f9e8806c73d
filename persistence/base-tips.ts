/**
 * The tip each guarded base branch had when kingshand last saw it move by its own hand (a
 * landing), first saw it (a dispatch), or the person accepted it (`hand project set
 * --accept-base`). A tip that differs from the record was moved by something else
 * (daemon/fleet/base-watch.ts). Kept in the state directory, which a worker's sandbox cannot
 * read or write — the repository's own refs would be the worker's to rewrite. A small 0600 JSON
 * file written whole and renamed, not a table: one daemon writes it, a few rows per repository.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../io/fs/private-files.ts';

export type TipSource = 'dispatch' | 'landing' | 'person';

export interface BaseTip {
  sha: string;
  by: TipSource;
  at: number;
  /** The moved-to tip the person was last told about, so one move is told once. */
  toldTo?: string;
}

export interface BaseTips {
  get(repo: string, branch: string): BaseTip | undefined;
  set(repo: string, branch: string, tip: BaseTip): void;
}

const keyOf = (repo: string, branch: string) => `${repo}\u0000${branch}`;

export function openBaseTips(stateDir: string, now: () => number = Date.now): BaseTips & { now: () => number } {
  const path = join(stateDir, 'base-tips.json');
  const load = (): Record<string, BaseTip> => {
    if (!existsSync(path)) return {};
    try {
      const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, BaseTip>) : {};
    } catch {
      // A damaged record is no record: the next check records the tip it sees (and says nothing moved).
      return {};
    }
  };
  return {
    now,
    get: (repo, branch) => load()[keyOf(repo, branch)],
    set(repo, branch, tip) {
      const all = load();
      all[keyOf(repo, branch)] = tip;
      const tmp = `${path}.${process.pid}.tmp`;
      writePrivateFile(tmp, JSON.stringify(all));
      renameSync(tmp, path);
    },
  };
}
