/** Gemini CLI behind the agent-profile seam: the facts live in io/agent/gemini/, this file only points at them. */
import {
  geminiLaunchArgs, geminiPostureGap, geminiWitnessHooks, seedGeminiTrust, trustedFoldersPathOf, writeDenyPolicy, writeGeminiSettings,
} from '../gemini/index.ts';
import { GEMINI_CLI } from '../gemini/binary.ts';
import { seedGeminiFar } from '../gemini/far-seed.ts';
import { addLocalExcludes, localExcludeFile } from '../../git/local-exclude.ts';
import { RefusedError } from '../../../contract/errors.ts';
import { GEMINI_PROJECT_SETTINGS } from '../gemini/project-settings.ts';
import { geminiCalibrationKit } from '../gemini/calibration-kit.ts';
import type { AgentProfile, SeedContext } from './types.ts';
import { geminiSandboxHome } from '../gemini/sandbox-home.ts';
import { geminiSessions } from '../sessions/gemini.ts';

function noGeminiHome(): RefusedError {
  return new RefusedError('gemini-home-unknown', 'the worker would run with neither HOME nor GEMINI_CLI_HOME set, so Gemini CLI\'s folder trust cannot be recorded and it would stop on the trust dialog; nothing was created. Set HOME in the environment you run hand dispatch from.');
}

/** Workspace settings (deny policy, hooks, no telemetry) in the worktree, trust in the person's trustedFolders.json. */
export async function seedGeminiCli(ctx: SeedContext): Promise<void> {
  const trustFile = trustedFoldersPathOf(ctx.env);
  if (trustFile === null) throw noGeminiHome();
  const policyFile = writeDenyPolicy(ctx.briefDir, { agentHome: ctx.env.HOME, stateDir: ctx.stateDir, briefDir: ctx.briefDir, reportDir: ctx.reportDir });
  await writeGeminiSettings({
    worktree: ctx.worktree,
    briefDir: ctx.briefDir,
    env: ctx.env,
    policyFile,
    ...(ctx.witness && ctx.stateDir ? { hooks: geminiWitnessHooks({ home: ctx.stateDir }) } : {}),
  });
  // Untracked (writeGeminiSettings refuses a tracked one): kept out of git status, so the clean
  // worktree stays removable and the file is never committed.
  addLocalExcludes(await localExcludeFile(ctx.worktree), ['/.gemini/settings.json']);
  // The brief directory is an included workspace directory: 0.61.0 asks about it unless trusted.
  await seedGeminiTrust({ path: trustFile, folders: [ctx.worktree, ctx.briefDir] });
}

export const geminiProfile: AgentProfile = {
  name: 'gemini',
  label: 'Gemini CLI',
  install: GEMINI_CLI.install,
  screenProfile: 'gemini',
  seedsClaudeJson: false,
  // `/exit` is its alias (0.61.0: quit, altNames exit), so the shared teardown ends it too.
  exitCommand: '/quit',
  witness: { kind: 'hooks', note: 'Gemini CLI hooks (the worktree\'s .gemini/settings.json): BeforeAgent, AfterAgent and Notification (ToolPermission) report turns and approval prompts; the screen decides where it can tell.' },
  binary: (env) => GEMINI_CLI.binary(env),
  version: (bin) => GEMINI_CLI.versionOf(bin),
  launchArgv: (bin, posture, where) => {
    const argv = [bin, ...geminiLaunchArgs(posture)];
    return where?.resumeSession ? geminiResumeArgv(argv, where.resumeSession) : argv;
  },
  // On another host: `gemini` on its PATH, seeded there by farSeed (no witness hooks there).
  farLaunchArgv: (posture) => ['gemini', ...geminiLaunchArgs(posture)],
  // Its package.json there when it is an npm install, else --version in a home of kingshand's own
  // (0.61.0 records the project in <home>/.gemini/projects.json even for --version).
  farVersion: GEMINI_CLI.farVersion,
  farSeed: seedGeminiFar,
  // Before anything is created: without a home its trust cannot be recorded (seed would refuse later).
  dispatchProblem: (_posture, _project, env) => (trustedFoldersPathOf(env) === null ? noGeminiHome() : null),
  postureGap: (posture, facts) => (facts?.sandboxed ? null : geminiPostureGap(posture)),
  // Its key and endpoint (0.61.0 reads both from the environment), its home and trust file, its relaunch switch.
  workerEnv: ['GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GEMINI_CLI_HOME', 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', 'GEMINI_CLI_NO_RELAUNCH'],
  seed: seedGeminiCli,
  sandboxHome: geminiSandboxHome,
  calibration: geminiCalibrationKit,
  projectSettings: GEMINI_PROJECT_SETTINGS,
  sessions: { format: geminiSessions, resumeArgv: (argv, id) => geminiResumeArgv(argv, id) },
};

/** `--resume <id>`: 0.61.0 takes a session's id as well as "latest" or an index (resolveSession). */
function geminiResumeArgv(argv: readonly string[], id: string): string[] {
  return [...argv, '--resume', id];
}

