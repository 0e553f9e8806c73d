/**
 * Before a sandboxed worker starts, the repository's loose objects go into a pack (`git repack
 * -d`, incremental: only what is loose, nothing rewritten), and the sandbox shows `objects/pack`
 * read-only. A worker must write `objects/` for its own commits — and with it could rewrite an
 * existing loose object's file (git reads a loose object without checking its content against
 * its name), changing the content of a commit on main with no ref moving. Packed, an object is
 * out of its reach, and git looks in packs before loose files, so a loose file a worker writes
 * under an existing object's name is never what git reads.
 *
 * With the repository's git directory known and nothing loose in it, there is nothing to pack and
 * git is not started (a repack starts two git processes, at every sandboxed dispatch). Any doubt —
 * a directory that cannot be read, objects borrowed from elsewhere (alternates, or git's object
 * variables in the daemon's environment) — runs the repack as before.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from './run-git.ts';
import { farTarget } from './git-place.ts';

export type PackOutcome = 'packed' | 'nothing-loose' | 'far' | { failed: string };

/** A loose object's directory under `objects/`: its name's first two hex digits. */
const LOOSE_DIR = /^[0-9a-f]{2}$/;

/** Whether `gitDir`'s object store holds a loose object (any file in a fan-out directory); null when that cannot be told. */
export function holdsLooseObjects(gitDir: string, env: NodeJS.ProcessEnv = process.env): boolean | null {
  if (env.GIT_OBJECT_DIRECTORY || env.GIT_ALTERNATE_OBJECT_DIRECTORIES) return null;
  const objects = join(gitDir, 'objects');
  try {
    if (existsSync(join(objects, 'info', 'alternates'))) return null;
    for (const d of readdirSync(objects)) {
      if (LOOSE_DIR.test(d) && readdirSync(join(objects, d)).length > 0) return true;
    }
    return false;
  } catch {
    return null;
  }
}

/** `gitDir`: the repository's common git directory, when the caller knows it (lets an empty store skip git). */
export async function packLooseObjects(repo: string, gitDir?: string): Promise<PackOutcome> {
  if (farTarget()) return 'far';
  if (gitDir !== undefined && holdsLooseObjects(gitDir) === false) return 'nothing-loose';
  const r = await runGit(repo, ['repack', '-d', '-q']);
  return r.exitCode === 0 ? 'packed' : { failed: (r.stderr || `git repack exited ${r.exitCode}`).slice(0, 300) };
}
