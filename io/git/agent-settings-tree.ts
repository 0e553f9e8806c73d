/**
 * The files under a few root names in a COMMIT'S TREE (`git ls-tree`, `git cat-file`), never
 * the worktree or the index: a worker that hides a committed file with `update-index
 * --skip-worktree`, assume-unchanged, a sparse checkout or `.gitignore` + `add -f` hides it
 * from `git status` and the worktree, not from the commit that lands (issue 37 item 3).
 * Root names match case-insensitively (a far macOS host's file system reads `.Claude/` as
 * `.claude/`); links and submodules are listed as what they are, never followed; the listing and
 * each blob are bounded, and past a bound the caller is told, never handed a short answer.
 */
import { gitOrRefuse, runGit } from './run-git.ts';

export interface TreeEntry {
  path: string;
  /** 100644, 100755, 120000 (a symbolic link), 160000 (a submodule), 040000 (a directory: only a root listed unexpanded). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

/** More files than this under the roots: the listing is cut and `truncated` names the roots. */
export const TREE_ENTRY_CAP = 2_000;
/** The largest settings file read (a real one is a few KB). */
export const BLOB_CAP_BYTES = 262_144;

export interface SettingsTree {
  entries: TreeEntry[];
  /** Roots whose listing went past TREE_ENTRY_CAP, with the tree sha of each (it changes when anything under it does). */
  truncated: { root: string; sha: string }[];
}

/** `<mode> <type> <sha>\t<path>` records of `ls-tree -z`. */
export function parseLsTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const m = /^(\d{6}) (blob|tree|commit) ([0-9a-f]{40,64})\t([\s\S]+)$/.exec(rec);
    if (m) entries.push({ mode: m[1]!, type: m[2] as TreeEntry['type'], sha: m[3]!, path: m[4]! });
  }
  return entries;
}

/**
 * The entries under `roots` (first path components such as `.claude`, `.mcp.json`) at `commit`.
 * One `ls-tree` of the top level finds which names exist (in any case), then one recursive
 * `ls-tree` per directory found.
 */
export async function settingsTree(repo: string, commit: string, roots: readonly string[]): Promise<SettingsTree> {
  const wanted = new Set(roots.map((r) => r.toLowerCase()));
  const top = parseLsTree(await gitOrRefuse(repo, ['ls-tree', '-z', '--full-tree', commit], 'git-ls-tree', `listing the tree of ${commit}`));
  const entries: TreeEntry[] = [];
  const truncated: SettingsTree['truncated'] = [];
  for (const e of top) {
    if (!wanted.has(e.path.toLowerCase())) continue;
    if (e.type !== 'tree') {
      entries.push(e);
      continue;
    }
    const r = await runGit(repo, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', e.path]);
    if (r.exitCode !== 0) throw new Error(`listing ${e.path} at ${commit} failed: ${r.stderr.trim() || r.spawnError || `exit ${r.exitCode}`}`);
    const under = parseLsTree(r.stdout).filter((x) => x.path.startsWith(`${e.path}/`));
    if (entries.length + under.length > TREE_ENTRY_CAP) {
      truncated.push({ root: e.path, sha: e.sha });
      continue;
    }
    entries.push(...under);
  }
  return { entries, truncated };
}

export type BlobText = { ok: true; text: string } | { ok: false; reason: string };

/** A blob's text, or why it was not read (over the cap, git failed). */
export async function readBlob(repo: string, sha: string, cap = BLOB_CAP_BYTES): Promise<BlobText> {
  const size = await runGit(repo, ['cat-file', '-s', sha]);
  if (size.exitCode !== 0) return { ok: false, reason: `git could not size it (${size.stderr.trim() || size.spawnError || `exit ${size.exitCode}`})` };
  const bytes = Number(size.stdout.trim());
  if (!Number.isFinite(bytes) || bytes > cap) return { ok: false, reason: `${size.stdout.trim()} bytes, over the ${cap}-byte cap kingshand reads` };
  const blob = await runGit(repo, ['cat-file', 'blob', sha]);
  if (blob.exitCode !== 0) return { ok: false, reason: `git could not read it (${blob.stderr.trim() || blob.spawnError || `exit ${blob.exitCode}`})` };
  return { ok: true, text: blob.stdout };
}

/** The commit both sides share (`base...head`): what a landing's diff is taken against. */
export async function mergeBase(repo: string, a: string, b: string): Promise<string> {
  return (await gitOrRefuse(repo, ['merge-base', a, b], 'git-merge-base', `finding where ${b.slice(0, 10)} left ${a.slice(0, 10)}`)).trim();
}
