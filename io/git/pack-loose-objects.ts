/**
 * Before a sandboxed worker starts, the repository's loose objects go into a pack (`git repack
 * -d`, incremental: only what is loose, nothing rewritten), and the sandbox shows `objects/pack`
 * read-only. A worker must write `objects/` for its own commits — and with it could rewrite an
 * existing loose object's file (git reads a loose object without checking its content against
 * its name), changing the content of a commit on main with no ref moving. Packed, an object is
 * out of its reach, and git looks in packs before loose files, so a loose file a worker writes
 * under an existing object's name is never what git reads.
 */
import { runGit } from './run-git.ts';
import { farTarget } from './git-place.ts';

export type PackOutcome = 'packed' | 'far' | { failed: string };

export async function packLooseObjects(repo: string): Promise<PackOutcome> {
  if (farTarget()) return 'far';
  const r = await runGit(repo, ['repack', '-d', '-q']);
  return r.exitCode === 0 ? 'packed' : { failed: (r.stderr || `git repack exited ${r.exitCode}`).slice(0, 300) };
}
