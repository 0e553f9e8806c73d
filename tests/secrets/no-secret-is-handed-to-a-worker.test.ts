/**
 * Rule: a worker's environment is an allow-list, never the caller's whole environment (issue 24
 * item 4). A hostile run found AWS_SECRET_ACCESS_KEY and GITHUB_TOKEN from the dispatching shell
 * in a worker's `env`, and HAND_HOME pointed every command the worker ran at the daemon.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWorkerEnv, allowListEnv } from '../../io/terminal/worker-env.ts';
import { createRealPorts } from '../../io/ports/real-ports.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { intent } from '../actors/helpers/harness.ts';

const SECRETS = { AWS_SECRET_ACCESS_KEY: 'aws-secret-value', AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', GITHUB_TOKEN: 'ghp_secretvalue', NPM_TOKEN: 'npm_secretvalue', GH_TOKEN: 'gho_x', OPENAI_API_KEY: 'sk-x' };
const CALLER = {
  PATH: '/usr/bin:/bin', HOME: '/home/p', USER: 'p', LOGNAME: 'p', SHELL: '/bin/bash', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC',
  TERM: 'screen-256color', COLORTERM: 'truecolor', TMPDIR: '/tmp', XDG_RUNTIME_DIR: '/run/user/1000',
  ANTHROPIC_API_KEY: 'the-agent-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', CLAUDE_CONFIG_DIR: '/home/p/.claude', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1', IS_SANDBOX: '1', HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'localhost', NODE_EXTRA_CA_CERTS: '/etc/ca.pem', SSL_CERT_FILE: '/etc/ca.pem',
  GIT_AUTHOR_NAME: 'p', GIT_COMMITTER_EMAIL: 'p@example.invalid', KH_MOCK_TICK_MS: '200',
  HAND_HOME: '/home/p/.kingshand',
  ...SECRETS,
};

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

describe('no secret is handed to a worker: the environment is an allow-list', () => {
  it("keeps what the agent needs to run and nothing else from the caller's shell", () => {
    const env = buildWorkerEnv(CALLER);
    for (const name of Object.keys(SECRETS)) expect(env, name).not.toHaveProperty(name);
    expect(env).not.toHaveProperty('HAND_HOME');
    for (const name of ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ', 'TERM', 'COLORTERM', 'TMPDIR', 'XDG_RUNTIME_DIR', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'DISABLE_AUTOUPDATER', 'IS_SANDBOX', 'HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'GIT_AUTHOR_NAME', 'GIT_COMMITTER_EMAIL', 'KH_MOCK_TICK_MS']) {
      expect(env[name], name).toBe((CALLER as Record<string, string>)[name]);
    }
  });

  it('--env pairs are the person’s explicit choice and always reach the worker', () => {
    const env = buildWorkerEnv(CALLER, { add: { NPM_TOKEN: 'given-on-purpose', MY_FLAG: '1' } });
    expect(env.NPM_TOKEN).toBe('given-on-purpose');
    expect(env.MY_FLAG).toBe('1');
  });

  it('names what it left out, never the values', () => {
    const { leftOut } = allowListEnv(CALLER);
    expect(leftOut).toEqual([...Object.keys(SECRETS), 'HAND_HOME'].sort());
    expect(JSON.stringify(leftOut)).not.toContain('secretvalue');
  });

  it('the launch spec carries no HAND_HOME; the hooks find the daemon by --home in their settings file', async () => {
    tmp = makeTempDir('no-secret-launch');
    const root = realpathSync(tmp.path);
    const dirs = { home: join(root, 'home'), worktree: join(root, 'wt'), briefs: join(root, 'briefs'), state: join(root, 'state') };
    for (const d of Object.values(dirs)) mkdirSync(d);
    const w = intent('w1', { worktree: dirs.worktree, briefPath: join(dirs.briefs, 'brief.md'), reportPath: join(dirs.briefs, 'report.md') });
    const ports = createRealPorts({ fallbackEnv: {}, stateDir: dirs.state });
    ports.rememberCallerEnv('w1', { ...CALLER, HOME: dirs.home, CLAUDE_CONFIG_DIR: '' });
    await ports.seedAgent(w, new AbortController().signal);
    const spec = ports.launchSpec(w);
    expect(spec.env).not.toHaveProperty('HAND_HOME');
    for (const name of Object.keys(SECRETS)) expect(spec.env, name).not.toHaveProperty(name);
    expect(spec.env.HAND_WORKER_ID).toBe('w1');
    const settings = join(dirs.worktree, '.claude', 'settings.local.json');
    expect(existsSync(settings), settings).toBe(true);
    const hooks = (JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, [{ hooks: [{ command: string }] }]> }).hooks;
    for (const [event, [entry]] of Object.entries(hooks)) {
      expect(entry.hooks[0].command, event).toContain(`--home ${dirs.state}`);
    }
  });
});
