/**
 * The worker allow-list (issue 24 item 4) keeps OPENAI_* and the like from workers. A Codex
 * worker needs its own home and OpenAI key to run at all: its profile names them, and they are
 * kept for Codex workers only — a Claude Code worker dispatched from the same shell never sees them.
 */
import { describe, expect, it } from 'vitest';
import { launchSpec } from '../../../io/agent/launch.ts';
import { allowListEnv } from '../../../io/terminal/worker-env.ts';
import { agentProfile } from '../../../io/agent/profiles/index.ts';

const CALLER = { PATH: '/usr/bin', HOME: '/home/p', OPENAI_API_KEY: 'sk-person', CODEX_HOME: '/home/p/.codex', AWS_SECRET_ACCESS_KEY: 'aws', GITHUB_TOKEN: 'gh' };

describe('a Codex worker gets its own key and home, and no other agent does', () => {
  it('codex keeps OPENAI_API_KEY and CODEX_HOME; the other credentials stay out', () => {
    const env = launchSpec('codex', { callerEnv: CALLER, posture: 'edits' }).env;
    expect(env).toMatchObject({ OPENAI_API_KEY: 'sk-person', CODEX_HOME: '/home/p/.codex', HOME: '/home/p' });
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });

  it('claude gets neither', () => {
    const env = launchSpec('claude', { callerEnv: CALLER }).env;
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.CODEX_HOME).toBeUndefined();
  });

  it('dispatch reports the names left out per agent', () => {
    expect(allowListEnv(CALLER, agentProfile('codex').workerEnv).leftOut).toEqual(['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN']);
    expect(allowListEnv(CALLER, agentProfile('claude').workerEnv).leftOut).toEqual(['AWS_SECRET_ACCESS_KEY', 'CODEX_HOME', 'GITHUB_TOKEN', 'OPENAI_API_KEY']);
  });
});
