/** The mock agent (mock-agent/): draws Claude Code's screens from a script, for tests and the demo. */
import { dirname, join } from 'node:path';
import { KINGSHAND_ROOT } from '../../root.ts';
import { seedClaudeCode } from './claude.ts';
import type { AgentProfile } from './types.ts';
import { seedClaudeFar } from '../claude/far-seed.ts';
import { claudeSandboxHome } from '../claude/sandbox-home.ts';

export const mockProfile: AgentProfile = {
  name: 'mock',
  label: 'the mock agent',
  install: 'nothing to install: it ships with kingshand (bin/mock-agent.js)',
  screenProfile: 'claude',
  exitCommand: '/exit',
  // KH_MOCK_STOP_HOOKS=1 (the bench's witness figures only) makes it run the Stop hook its seed wrote, as Claude Code does.
  witness: { kind: 'none', note: 'the mock agent runs no hooks; its screen alone decides.' },
  binary: () => join(KINGSHAND_ROOT, 'bin', 'mock-agent.js'),
  version: async () => null,
  launchArgv: (bin) => [process.execPath, bin],
  // Its bundle runs on a far host's own node: installed there as a program of its own.
  farLaunchArgv: () => ['kh-mock-agent'],
  dispatchProblem: () => null,
  postureGap: () => null,
  // It mirrors Claude Code's trust check, so it reads the same files.
  seed: seedClaudeCode,
  farSeed: seedClaudeFar,
  // It reads its trust where Claude Code does ($CLAUDE_CONFIG_DIR/.claude.json), so it runs from the same kind of directory.
  sandboxHome: claudeSandboxHome,
  // The files a test names for it: its script and the file that holds its start (read), its event log (appended).
  sandboxPaths: (env) => ({
    ro: [env.KH_MOCK_SCENARIO, env.KH_MOCK_START_FILE ? dirname(env.KH_MOCK_START_FILE) : undefined].filter((p): p is string => Boolean(p)),
    rw: env.KH_MOCK_EVENT_LOG ? [env.KH_MOCK_EVENT_LOG] : [],
  }),
  // It reads no project settings: it runs no hooks, starts no MCP server and obeys no allow rule
  // (mock-agent/ reads only its brief, its script and ~/.claude.json's trust; with
  // KH_MOCK_STOP_HOOKS=1, set only by the bench, also the Stop hook of the settings.local.json
  // kingshand's seed writes).
  projectSettings: [],
};
