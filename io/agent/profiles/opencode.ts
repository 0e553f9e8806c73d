/** OpenCode behind the agent-profile seam: the facts live in io/agent/opencode/, this file only points at them. */
import { join } from 'node:path';
import { FAR_OPENCODE_VERSION, FIX_OPENCODE, opencodeBinary, opencodeVersionOf, parseOpencodePackageOrVersion } from '../opencode/binary.ts';
import { opencodeLaunchEnv } from '../opencode/launch-env.ts';
import { opencodePostureGap } from '../opencode/permission.ts';
import { OPENCODE_PROJECT_SETTINGS } from '../opencode/project-settings.ts';
import { opencodeSandboxHome } from '../opencode/sandbox-home.ts';
import { opencodeCalibrationKit } from '../opencode/calibration-kit.ts';
import type { AgentProfile } from './types.ts';

/** Files the person's own OpenCode variables name, read by the worker's agent (its sandbox shows them read-only). */
const PERSONS_FILES = ['OPENCODE_CONFIG', 'OPENCODE_CONFIG_DIR', 'OPENCODE_MODELS_PATH'] as const;

export const opencodeProfile: AgentProfile = {
  name: 'opencode',
  label: 'OpenCode',
  install: FIX_OPENCODE,
  screenProfile: 'opencode',
  // Its session leaves with `/exit` (1.17.19, 1.18.33: status 0), as the shared teardown types.
  exitCommand: '/exit',
  seedsClaudeJson: false,
  witness: {
    kind: 'hooks',
    note: "an OpenCode plugin of kingshand's (io/agent/opencode/witness-plugin.mjs, loaded by the worker's launch config) says its session.status, session.idle, permission.asked, question.asked and session.error events through hand hook; the screen decides where it can tell.",
  },
  binary: (env) => opencodeBinary(env),
  version: (bin) => opencodeVersionOf(bin),
  // Nothing on the command line: the first prompt is typed, the setup is in the launch environment.
  launchArgv: (bin) => [bin],
  launchEnv: (posture, where, env) => {
    const dataHome = env.XDG_DATA_HOME || (env.HOME ? join(env.HOME, '.local', 'share') : undefined);
    return opencodeLaunchEnv({
      posture,
      ...(where ? { worktree: where.worktree, briefDir: where.briefDir, reportDir: where.reportDir } : {}),
      ...(where?.stateDir ? { stateDir: where.stateDir } : {}),
      ...(where?.witnessHome ? { witnessHome: where.witnessHome } : {}),
      ...(env.HOME ? { home: env.HOME } : {}),
      ...(dataHome ? { dataHome } : {}),
    });
  },
  // On another host: `opencode` on its PATH, set up by the same launch variables (no witness there).
  farLaunchArgv: () => ['opencode'],
  farVersion: { argv: (stateDir) => ['sh', '-c', FAR_OPENCODE_VERSION, 'sh', `${stateDir}/opencode-version`], parse: parseOpencodePackageOrVersion },
  // It needs no file of its own written: everything per worker is in its launch environment.
  farSeed: async () => {},
  dispatchProblem: () => null,
  postureGap: (posture, facts) => (facts?.sandboxed ? null : opencodePostureGap(posture)),
  // Its own switches and the person's config places (the provider keys it reads by name are many:
  // ANTHROPIC_* passes for every agent, another provider's key goes with --env or its login).
  workerEnv: [...PERSONS_FILES, 'OPENCODE_DISABLE_MODELS_FETCH', 'OPENCODE_DISABLE_LSP_DOWNLOAD', 'OPENCODE_DISABLE_CLAUDE_CODE', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
  // Nothing to seed: no trust dialog, no onboarding once a provider is set up, and its config for
  // this worker travels in the launch environment (launchEnv), so the person's files are never written.
  seed: async () => {},
  sandboxHome: opencodeSandboxHome,
  sandboxPaths: (env) => ({
    ro: PERSONS_FILES.map((v) => env[v]).filter((p): p is string => Boolean(p)),
    rw: [],
  }),
  calibration: opencodeCalibrationKit,
  projectSettings: OPENCODE_PROJECT_SETTINGS,
};
