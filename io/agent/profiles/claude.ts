/** Claude Code behind the agent-profile seam: the facts live in io/agent/claude/, this file only points at them. */
import { join } from 'node:path';
import { claudeBinary, claudeVersionOf } from '../claude/binary.ts';
import { FIX_CLAUDE } from '../setup-facts.ts';
import { claudeLaunchArgs, rootProblem, seedTrust, writePostureSettings } from '../claude/index.ts';
import { sandboxProblem } from '../claude/sandbox.ts';
import { claudeConfigDirOf } from '../claude/claude-json-plan.ts';
import { witnessHooks } from '../claude/hooks.ts';
import { CLAUDE_PROJECT_SETTINGS } from '../claude/project-settings.ts';
import { claudeCalibrationKit } from '../claude/calibration-kit.ts';
import type { AgentProfile, SeedContext } from './types.ts';
import { seedClaudeFar } from '../claude/far-seed.ts';
import { claudeSandboxHome } from '../claude/sandbox-home.ts';
import { parseClaudeVersion } from '../../screen/profiles/claude-versions.ts';
import { claudeSessions } from '../sessions/claude.ts';

/** Claude Code's own settings (settings.local.json in the worktree) and trust in its .claude.json. */
export async function seedClaudeCode(ctx: SeedContext): Promise<void> {
  writePostureSettings(ctx.posture, {
    worktree: ctx.worktree,
    briefDir: ctx.briefDir,
    reportDir: ctx.reportDir,
    agentHome: ctx.env.HOME,
    stateDir: ctx.stateDir,
    gitCommonDir: ctx.gitCommonDir,
    ...(ctx.sandboxed ? { outerSandbox: true } : {}),
    ...(ctx.witness && ctx.stateDir ? { hooks: witnessHooks({ home: ctx.stateDir }) } : {}),
  });
  // Trust goes where the worker will look: Claude Code 2.1.332 reads
  // $CLAUDE_CONFIG_DIR/.claude.json when that is set (and then ignores $HOME/.claude.json),
  // else $HOME/.claude.json — of the environment it is launched with (--env wins).
  const dir = claudeConfigDirOf(ctx.env);
  // Dispatch checked the directory and said whether the file is created (claude-json-plan.ts).
  if (dir) await seedTrust({ claudeJsonPath: join(dir, '.claude.json'), worktree: ctx.worktree, createMissing: true });
}

export const claudeProfile: AgentProfile = {
  name: 'claude',
  label: 'Claude Code',
  install: FIX_CLAUDE,
  screenProfile: 'claude',
  exitCommand: '/exit',
  witness: { kind: 'hooks', note: 'Claude Code hooks (settings.local.json) report turn ends and permission requests; the screen decides where it can tell.' },
  binary: (env) => claudeBinary(env),
  version: (bin) => claudeVersionOf(bin),
  // Only `off` takes a flag: 2.1.332 ignores bypassPermissions asked for in settings.
  launchArgv: (bin, posture, where) => {
    const argv = [bin, ...claudeLaunchArgs(posture)];
    return where?.resumeSession ? claudeProfile.sessions!.resumeArgv(argv, where.resumeSession) : argv;
  },
  // `claude` where a non-interactive ssh command finds it (hand host check asks the same).
  farLaunchArgv: (posture) => ['claude', ...claudeLaunchArgs(posture)],
  farVersion: { argv: () => ['claude', '--version'], parse: parseClaudeVersion },
  farSeed: seedClaudeFar,
  // In kingshand's sandbox root is an ordinary user (Claude Code's refusal of root does not arise)
  // and Claude Code's own sandbox is not used (bubblewrap and socat need not be on its PATH).
  dispatchProblem: (posture, project, env, facts) => (facts?.sandboxed ? null : rootProblem(posture, project, env) ?? sandboxProblem(posture, project, env)),
  postureGap: () => null,
  seed: seedClaudeCode,
  sandboxHome: claudeSandboxHome,
  calibration: claudeCalibrationKit,
  projectSettings: CLAUDE_PROJECT_SETTINGS,
  // `claude --resume <id>` (every release since 1.0): the same session, its transcript appended to.
  sessions: { format: claudeSessions, resumeArgv: ([bin, ...rest], id) => [bin!, '--resume', id, ...rest] },
};
