/**
 * The full patch a landing would bring (`git diff base...head`), for people to read on the review
 * page. The landing evidence keeps only the stat; this is the text behind it, capped so a huge
 * generated file cannot stall the page.
 */
import { gitOrRefuse } from './run-git.ts';

export const DIFF_CAP_BYTES = 400_000;

export async function landingDiff(repo: string, baseSha: string, headSha: string, cap = DIFF_CAP_BYTES): Promise<{ patch: string; truncated: boolean }> {
  const patch = await gitOrRefuse(repo, ['diff', '--no-color', '--no-ext-diff', `${baseSha}...${headSha}`, '--'], 'git-diff', 'gathering the diff');
  if (Buffer.byteLength(patch) <= cap) return { patch, truncated: false };
  // Cut at a file boundary so diff2html never sees half a hunk.
  const cut = patch.lastIndexOf('\ndiff --git ', cap);
  return { patch: cut > 0 ? patch.slice(0, cut + 1) : '', truncated: true };
}
