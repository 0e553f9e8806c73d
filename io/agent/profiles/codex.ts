/** OpenAI Codex CLI behind the agent-profile seam: the facts live in io/agent/codex/, this file only points at them. */
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../../root.ts';
import { codexBinary, codexLaunchArgs, codexVersionOf, parseCodexVersion } from '../codex/launch.ts';
import { seedCodexFar } from '../codex/far-seed.ts';
import { codexPostureGaps } from '../codex/postures.ts';
import { codexConfigPath, seedCodexTrust } from '../codex/trust-seed.ts';
import { CODEX_PROJECT_SETTINGS } from '../codex/project-settings.ts';
import { codexCalibrationKit } from '../codex/calibration-kit.ts';
import type { AgentProfile, SeedContext } from './types.ts';
import { codexSandboxHome } from '../codex/sandbox-home.ts';
import { codexSessions } from '../sessions/codex.ts';

export const FIX_CODEX = 'npm install --save-exact @openai/codex@0.169.0';

/** Folder trust in the config.toml the worker will read ($CODEX_HOME of its launch environment). */
async function seedCodex(ctx: SeedContext): Promise<void> {
  seedCodexTrust({ configPath: codexConfigPath(ctx.env), worktree: ctx.worktree });
}

export const codexProfile: AgentProfile = {
  name: 'codex',
  label: 'Codex CLI',
  install: FIX_CODEX,
  screenProfile: 'codex',
  exitCommand: '/exit',
  witness: {
    kind: 'notify',
    note: "Codex CLI's notify command runs `hand hook Stop` at each turn's end (its only event: no approval or question notice), so the witness says idle; the screen decides where it can tell.",
  },
  binary: (env) => codexBinary(env),
  version: (bin) => codexVersionOf(bin),
  launchArgv: (bin, posture, where) => withResume(where?.resumeSession, [
    bin,
    ...codexLaunchArgs({
      posture,
      version: where?.agentVersion ?? null,
      // The report is written to the report directory (out/ in the brief directory), outside the
      // worktree: the sandbox must be told (edits only); the brief directory itself stays read-only.
      // A commit still asks: Codex keeps every .git read-only in its sandbox.
      writableRoots: where ? [where.reportDir] : [],
      // The second witness: Codex runs this after each turn with its event as the last argument.
      ...(where?.witnessHome ? { notify: [process.execPath, join(KINGSHAND_ROOT, 'bin', 'hand.js'), '--home', where.witnessHome, 'hook', 'Stop'] } : {}),
    }),
  ]),
  // On another host: `codex` on its PATH, the far report directory writable under edits; no
  // witness there (its notify would run `hand hook`, which cannot reach this daemon).
  farLaunchArgv: (posture, where) => ['codex', ...codexLaunchArgs({ posture, writableRoots: where ? [where.reportDir] : [] })],
  farVersion: { argv: () => ['codex', '--version'], parse: parseCodexVersion },
  farSeed: async (ctx) => {
    await seedCodexFar(ctx);
  },
  dispatchProblem: () => null,
  postureGap: (posture, facts) => codexPostureGaps(posture, facts?.sandboxed === true).join('; ') || null,
  // Its home (config, login) and the OpenAI key and endpoint it reads; a custom provider's own
  // env_key variable still needs --env (it is named only inside the person's config.toml).
  workerEnv: ['CODEX_HOME', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'],
  // Its trust goes into $CODEX_HOME/config.toml (trust-seed.ts), never ~/.claude.json.
  seedsClaudeJson: false,
  seed: seedCodex,
  sandboxHome: codexSandboxHome,
  calibration: codexCalibrationKit,
  projectSettings: CODEX_PROJECT_SETTINGS,
  sessions: { format: codexSessions, resumeArgv: codexResumeArgv },
};

/**
 * `codex resume [OPTIONS] <SESSION_ID>` (0.100.0 on): the subcommand takes the same options as a
 * fresh start, the session id last (a prompt could follow it; none is ever passed).
 */
function codexResumeArgv([bin, ...rest]: readonly string[], id: string): string[] {
  return [bin!, 'resume', ...rest, id];
}

function withResume(id: string | undefined, argv: string[]): string[] {
  return id ? codexResumeArgv(argv, id) : argv;
}
