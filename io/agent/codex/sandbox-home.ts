/**
 * Codex CLI from a CODEX_HOME of the worker's own inside kingshand's sandbox
 * (io/sandbox/agent-home.ts). Its config.toml is a copy of the person's, made again at each launch
 * (their provider, model and settings as they are now; the trust seed then adds the worktree, so
 * the person's own file is never written); their instructions, prompts and rules come in
 * read-only, their login (auth.json) writable. Sessions, logs and history are the worker's.
 */
import { join } from 'node:path';
import { claimRegularFile, copyPersonsFile, type AgentSandboxHome, type Env } from '../../sandbox/agent-home.ts';
import { codexHome } from './trust-seed.ts';

export const codexSandboxHome: AgentSandboxHome = {
  env: 'CODEX_HOME',
  personsDir: (env: Env) => codexHome(env),
  readOnly: ['AGENTS.md', 'AGENTS.override.md', 'prompts', 'rules', 'skills'],
  shared: ['auth.json'],
  prepare(personsDir, workersDir) {
    const target = join(workersDir, 'config.toml');
    claimRegularFile(target);
    copyPersonsFile(personsDir ? join(personsDir, 'config.toml') : null, target);
  },
};
