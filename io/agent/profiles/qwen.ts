/** Qwen Code behind the agent-profile seam: the facts live in io/agent/qwen/, this file only points at them. */
import { FAR_QWEN_VERSION, FIX_QWEN, parseQwenPackageOrVersion, qwenBinary, qwenVersionOf } from '../qwen/binary.ts';
import { qwenCalibrationKit } from '../qwen/calibration-kit.ts';
import { seedQwenFar } from '../qwen/far-seed.ts';
import { qwenWitnessHooks } from '../qwen/hooks.ts';
import { qwenLaunchArgs, qwenPostureGap } from '../qwen/posture.ts';
import { QWEN_PROJECT_SETTINGS } from '../qwen/project-settings.ts';
import { qwenSandboxHome } from '../qwen/sandbox-home.ts';
import { qwenLaunchVariables, writeQwenWorkerSettings } from '../qwen/worker-settings.ts';
import type { AgentProfile } from './types.ts';

export const qwenProfile: AgentProfile = {
  name: 'qwen',
  label: 'Qwen Code',
  install: FIX_QWEN,
  screenProfile: 'qwen',
  seedsClaudeJson: false,
  // `/quit` (its alias `/exit`) ends it with status 0 (0.15.6, 0.15.10), as the shared teardown types.
  exitCommand: '/quit',
  witness: {
    kind: 'hooks',
    note: "Qwen Code's hooks, Claude Code's own words (the worker's system settings in its brief directory): UserPromptSubmit, Stop, StopFailure and Notification (permission_prompt) report turns and approval prompts; the screen decides where it can tell.",
  },
  binary: (env) => qwenBinary(env),
  version: (bin) => qwenVersionOf(bin),
  // The posture's approval mode on the command line (it wins over any settings file's); the first prompt is typed.
  launchArgv: (bin, posture) => [bin, ...qwenLaunchArgs(posture)],
  // Its settings for this worker (written by seed) and its trust, named by the variables it reads.
  launchEnv: (_posture, where, env) => (where ? qwenLaunchVariables(where.briefDir, env) : {}),
  farLaunchArgv: (posture) => ['qwen', ...qwenLaunchArgs(posture)],
  farVersion: { argv: (stateDir) => ['sh', '-c', FAR_QWEN_VERSION, 'sh', `${stateDir}/qwen-version`], parse: parseQwenPackageOrVersion },
  farSeed: seedQwenFar,
  dispatchProblem: () => null,
  postureGap: (posture, facts) => (facts?.sandboxed ? null : qwenPostureGap(posture)),
  // Its home and the person's system settings and trust places, its relaunch switch, and the
  // keys and endpoints of its OpenAI-compatible and Gemini auths (ANTHROPIC_* passes for every agent).
  workerEnv: [
    'QWEN_HOME', 'QWEN_CODE_SYSTEM_SETTINGS_PATH', 'QWEN_CODE_SYSTEM_DEFAULTS_PATH', 'QWEN_CODE_TRUSTED_FOLDERS_PATH', 'QWEN_CODE_NO_RELAUNCH',
    'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'QWEN_MODEL', 'DASHSCOPE_API_KEY', 'GEMINI_API_KEY', 'GEMINI_MODEL',
  ],
  // The worker's system settings and trust file in its brief directory: nothing of the person's
  // (~/.qwen, /etc/qwen-code) and nothing in the worktree is written.
  seed: async (ctx) => {
    writeQwenWorkerSettings({
      posture: ctx.posture,
      worktree: ctx.worktree,
      briefDir: ctx.briefDir,
      reportDir: ctx.reportDir,
      home: ctx.env.HOME,
      stateDir: ctx.stateDir,
      hooks: ctx.witness && ctx.stateDir ? qwenWitnessHooks({ home: ctx.stateDir }) : undefined,
    }, ctx.env);
  },
  sandboxHome: qwenSandboxHome,
  calibration: qwenCalibrationKit,
  projectSettings: QWEN_PROJECT_SETTINGS,
};
