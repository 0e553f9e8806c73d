/**
 * Gemini CLI from a GEMINI_CLI_HOME of the worker's own inside kingshand's sandbox
 * (io/sandbox/agent-home.ts): 0.61.0 keeps everything under `<GEMINI_CLI_HOME>/.gemini/`. The
 * person's user settings, instructions, commands and extensions come in read-only, their login
 * writable; trust (trustedFolders.json, seeded by dispatch), chats and history are the worker's.
 */
import { join } from 'node:path';
import { claimRegularFile, type AgentSandboxHome, type Env } from '../../sandbox/agent-home.ts';

export const geminiSandboxHome: AgentSandboxHome = {
  env: 'GEMINI_CLI_HOME',
  personsDir: (env: Env) => env.GEMINI_CLI_HOME || env.HOME || null,
  readOnly: ['.gemini/settings.json', '.gemini/GEMINI.md', '.gemini/commands', '.gemini/extensions'],
  shared: ['.gemini/oauth_creds.json', '.gemini/google_accounts.json'],
  // The trust seed writes here: whatever the worker left in its place is removed first, never followed.
  prepare(_personsDir, workersDir) {
    claimRegularFile(join(workersDir, '.gemini', 'trustedFolders.json'));
  },
};
