/**
 * The base branch moves only through a landing (issue 24 item 3): a worker's
 * `git update-ref refs/heads/main HEAD` in its worktree made its commit `main` — worktrees share
 * the repository's refs — and no gate ever opened. This installs git's `reference-transaction`
 * hook in the repository's hooks directory (shared by every worktree), refusing an update of a
 * guarded branch when the transaction runs in a worker: HAND_WORKER_ID in its environment, or a
 * working directory under `.claude/worktrees/`. The person's own git in their checkout, and the
 * daemon's landing (which runs in the person's checkout, without a worker's environment), pass.
 *
 * A far worker's repository gets the same hook on its host (git-place.ts): read and written there.
 *
 * It is a guard against a worker that runs git, not a boundary: a worker can unset the
 * variable, pass `-c core.hooksPath=…`, or write the ref file itself. What stops those is the
 * sandbox (writes limited to the worktree) and what notices them is the recorded tip
 * (persistence/base-tips.ts), compared at every settle and at land.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitPrintedPath, runGit } from './run-git.ts';
import { farTarget } from './git-place.ts';
import { readRemoteFile } from '../ssh/remote-files.ts';
import { runRemote } from '../ssh/run-remote.ts';
import type { SshTarget } from '../ssh/ssh-command.ts';

export const BASE_GUARD_MARK = '# kingshand base guard';
const HOOK = 'reference-transaction';
/** A branch name the hook can hold in single quotes without escaping; any other is not guarded (and said). */
const PLAIN_BRANCH = /^[A-Za-z0-9._/-]+$/;

export type BaseGuardOutcome =
  | { outcome: 'installed' | 'already'; path: string; guarded: string[] }
  | { outcome: 'foreign' | 'not-guarded'; path: string | null; why: string };

export function baseGuardScript(refs: readonly string[]): string {
  return `#!/bin/sh
${BASE_GUARD_MARK} (issue 24): a worker's git does not move these branches; only hand land and the person's approval do.
GUARDED='${refs.join(' ')}'
[ "$1" = prepared ] || exit 0
worker=
[ -n "$HAND_WORKER_ID" ] && worker=1
case "$(pwd -P)/" in */.claude/worktrees/*) worker=1 ;; esac
[ -n "$worker" ] || exit 0
status=0
while read -r old new ref; do
  case " $GUARDED " in
    *" $ref "*)
      echo "kingshand: $ref moves only through hand land and the person's approval; this worker's update of it was refused." >&2
      status=1 ;;
  esac
done
exit $status
`;
}

function guardedIn(script: string): string[] {
  const m = /^GUARDED='([^']*)'$/m.exec(script);
  return m ? m[1]!.split(' ').filter(Boolean) : [];
}

/** Installs (or extends) the guard of `refs/heads/<branch>` in `repo`'s hooks directory. */
export async function installBaseGuard(repo: string, branch: string): Promise<BaseGuardOutcome> {
  if (!PLAIN_BRANCH.test(branch)) return { outcome: 'not-guarded', path: null, why: `the branch name ${JSON.stringify(branch)} has characters the hook does not quote` };
  const r = await runGit(repo, ['rev-parse', '--git-path', 'hooks']);
  if (r.exitCode !== 0) return { outcome: 'not-guarded', path: null, why: `git rev-parse --git-path hooks failed: ${r.stderr.trim()}` };
  const path = join(gitPrintedPath(repo, r.stdout.trim()), HOOK);
  const ref = `refs/heads/${branch}`;
  let refs = [ref];
  const hooks = hookFiles(farTarget());
  const current = await hooks.read(path);
  if (current !== null) {
    // The person's own hook is theirs: it is not replaced; the recorded tip still notices a move.
    if (!current.includes(BASE_GUARD_MARK)) return { outcome: 'foreign', path, why: `${path} is not kingshand's; it was left as it is` };
    const had = guardedIn(current);
    if (had.includes(ref)) return { outcome: 'already', path, guarded: had };
    refs = [...had, ref];
  }
  await hooks.write(path, baseGuardScript(refs));
  return { outcome: 'installed', path, guarded: refs };
}

/** $1 = hook: written whole to a temp file, made executable, renamed (a git running meanwhile sees the old hook or the new one). */
const WRITE_HOOK_THERE = 'umask 022; d=$(dirname -- "$1") && mkdir -p -- "$d" && cat > "$1.kingshand-tmp" && chmod 755 -- "$1.kingshand-tmp" && mv -f -- "$1.kingshand-tmp" "$1"';

/** The hooks directory where git runs: here, or on the far host (the far account's own files, over its ssh master). */
function hookFiles(far: SshTarget | null): { read(path: string): Promise<string | null>; write(path: string, text: string): Promise<void> } {
  if (far) return { read: (path) => readRemoteFile(far, path), write: async (path, text) => void (await runRemote(far, ['sh', '-c', WRITE_HOOK_THERE, 'sh', path], text)) };
  return {
    read: async (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
    async write(path, text) {
      mkdirSync(dirname(path), { recursive: true });
      // Written whole, then renamed: a git running meanwhile sees the old hook or the new one.
      const tmp = `${path}.kingshand-${process.pid}.tmp`;
      writeFileSync(tmp, text);
      chmodSync(tmp, 0o755);
      renameSync(tmp, path);
    },
  };
}
