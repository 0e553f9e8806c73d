/**
 * The files a branch's commits change since it left its base (`git diff --name-only
 * base...head`), in git's order: the F- items the person annotates on the review page (issue 40).
 * The names are the worker's (untrusted text): NUL-separated so a name with a newline is one name,
 * control characters shown escaped, capped in number.
 */
import { runGit } from './run-git.ts';

/** The most files a review lists by id: past it the diff is read in full on the page. */
export const CHANGED_FILES_CAP = 500;

export async function changedFiles(repo: string, base: string, head: string): Promise<{ files: string[]; capped: boolean } | null> {
  const r = await runGit(repo, ['-c', 'core.fsmonitor=false', 'diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', `${base}...${head}`, '--']);
  if (r.exitCode !== 0) return null;
  const names = r.stdout.split('\0').filter((n) => n !== '').map((n) => n.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return { files: names.slice(0, CHANGED_FILES_CAP), capped: names.length > CHANGED_FILES_CAP };
}
