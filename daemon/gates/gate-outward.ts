/**
 * The no-mistakes gate's held outward step, released by the landing approval. While yolo is off
 * the worker runs the gate with `--skip push,pr,ci` (nothing leaves before the person says so);
 * once the person approves the landing, the gate runs again in the worktree without those skips
 * (`--skip ci` stays only on a repository proven no-ci, as at dispatch) and pushes and opens the
 * PR itself. Before this, a passed held run reached no PR at all. argv only, never a shell string.
 */
import { readBriefAsDispatchedSync } from '../../io/brief/brief-copy.ts';
import { RefusedError } from '../../contract/errors.ts';
import { findExecutable, remoteHasBranch } from '../../io/git/index.ts';
import { readGateRun } from '../../io/gate/gate-run.ts';
import { farTarget } from '../../io/git/git-place.ts';
import { FAR_TOOL_PATH, runFarTool } from '../../io/ssh/far-tool.ts';
import { intentLine, readDelivery } from './review-gate.ts';
import type { WorkerIntent } from '../../persistence/types.ts';

/** The gate run where the worktree is: here with the caller's `env`, or on the far host io/git runs on now, as its account. */
async function runGate(intent: WorkerIntent, argv: string[], env: Record<string, string | undefined>): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const far = farTarget();
  if (far) {
    const r = await runFarTool(far, intent.worktree, 'no-mistakes', argv);
    if (r.exitCode === 127) throw new RefusedError('gate-missing', `no-mistakes is not on the PATH of ${far.user}@${far.address} (${FAR_TOOL_PATH}), where ${intent.id}'s worktree is, so the gate's outward step cannot run; nothing was pushed. Install it there for ${far.user}, then approve again.`, { id: intent.id, host: far.address });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.error ?? r.stderr };
  }
  const bin = findExecutable('no-mistakes', env);
  if (!bin) throw new RefusedError('gate-missing', `no-mistakes is not on PATH (searched PATH ${env.PATH ?? ''}), so the gate's outward step cannot run; nothing was pushed. Install it, then approve again.`, { id: intent.id });
  const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
  const r = await execa(bin, argv, { cwd: intent.worktree, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { exitCode: r.exitCode ?? null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

export async function releaseGateOutwardStep(intent: WorkerIntent, env: Record<string, string | undefined>): Promise<{ pr: string | null; pushed: boolean; runId: string | null }> {
  const delivery = readDelivery(intent.briefPath);
  const skip = delivery?.ci?.status === 'no-ci' ? ['--skip', 'ci'] : [];
  // The brief as dispatched (the daemon's copy): a worker's rewrite of its brief.md never becomes the gate's intent.
  const brief = readBriefAsDispatchedSync(intent.briefPath);
  if ('error' in brief) throw new RefusedError('brief-unreadable', `the brief of ${intent.id} could not be read (${brief.error}); the gate's outward step needs it as its intent. Nothing was pushed.`, { id: intent.id });
  const argv = ['axi', 'run', '--intent', intentLine(brief.text), ...skip];
  const r = await runGate(intent, argv, env);
  if (r.exitCode !== 0) {
    throw new RefusedError('gate-outward-failed', `the gate's outward step (no-mistakes ${argv.join(' ')}) failed in ${intent.worktree}: ${(r.stderr || r.stdout).trim()}. Nothing was landed; read the gate (no-mistakes axi status) and approve again.`, { id: intent.id, argv });
  }
  const s = await readGateRun(intent.worktree, { branch: intent.branch, env });
  return { pr: s.pr ?? null, pushed: await remoteHasBranch(intent.repo, intent.branch), runId: s.runId ?? null };
}
