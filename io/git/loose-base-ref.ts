/**
 * The base branch's ref as a file of its own, so a worker's sandbox can pin it read-only
 * (io/sandbox/worker-sandbox.ts binds `refs/heads/<base>` over itself): a ref that lives only in
 * `packed-refs` has no file to pin, and a worker could then write a loose one that git reads
 * before the packed entry. Writing the loose file with the value git already resolves changes
 * nothing git answers; it is done only with git's files backend (a reftable repository has no
 * ref files, and keeps the hook and the recorded tip as its guard).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runGit } from './run-git.ts';
import { gitCommonDir } from './common-dir.ts';
import { farTarget } from './git-place.ts';

export type LooseRefOutcome = 'loose' | 'written' | 'absent' | 'not-files-backend' | 'far';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** `commonDir`: the repository's common git directory when the caller has asked git for it already (undefined: asked here). */
export async function ensureLooseBaseRef(repo: string, branch: string, commonDir?: string): Promise<LooseRefOutcome> {
  // A far worker runs without kingshand's sandbox: nothing there pins the file.
  if (farTarget()) return 'far';
  const common = commonDir ?? (await gitCommonDir(repo));
  if (!common) return 'absent';
  const storage = await runGit(repo, ['config', '--get', 'extensions.refStorage']);
  if (storage.exitCode === 0 && storage.stdout.trim() !== '' && storage.stdout.trim() !== 'files') return 'not-files-backend';
  const file = join(common, 'refs', 'heads', ...branch.split('/'));
  if (existsSync(file)) return 'loose';
  const r = await runGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  const sha = r.stdout.trim();
  if (r.exitCode !== 0 || !SHA.test(sha)) return 'absent';
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.kh-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, `${sha}\n`, { flag: 'wx', mode: 0o644 });
  renameSync(tmp, file);
  return 'written';
}
