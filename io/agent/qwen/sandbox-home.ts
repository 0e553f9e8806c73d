/**
 * Qwen Code from a QWEN_HOME of the worker's own inside kingshand's sandbox
 * (io/sandbox/agent-home.ts): 0.15.10 keeps everything of the person's under `~/.qwen` (QWEN_HOME
 * is that directory itself). Their user settings, instructions, commands, agents and skills come
 * in read-only, their Qwen login writable; chats, memory, history and its temp files are the
 * worker's. Trust and the worker's settings are not there: they are the daemon's files in the
 * brief directory (worker-settings.ts).
 */
import type { AgentSandboxHome } from '../../sandbox/agent-home.ts';
import { personsQwenHome } from './worker-settings.ts';

export const qwenSandboxHome: AgentSandboxHome = {
  env: 'QWEN_HOME',
  personsDir: personsQwenHome,
  readOnly: ['settings.json', 'QWEN.md', 'AGENTS.md', 'output-language.md', 'commands', 'agents', 'skills', '.env'],
  shared: ['oauth_creds.json'],
};
