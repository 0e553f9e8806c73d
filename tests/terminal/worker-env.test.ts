import { describe, expect, it } from 'vitest';
import { buildWorkerEnv, PARENT_SESSION_MARKERS } from '../../io/terminal/worker-env.ts';

describe('worker environment', () => {
  const caller = {
    PATH: '/usr/bin:/bin',
    ANTHROPIC_BASE_URL: 'http://proxy.example:8080',
    HTTPS_PROXY: 'http://corp-proxy:3128',
    CLAUDECODE: '1',
    CLAUDE_CODE_ENTRYPOINT: 'cli',
    CLAUDE_CODE_CHILD_SESSION: '1',
    CLAUDE_CODE_SSE_PORT: '41234',
    CLAUDE_CODE_SESSION_ID: 'parent-session',
    CLAUDE_PID: '4242',
    TMUX: '/tmp/tmux-0/default,1,0',
    TMUX_PANE: '%3',
    UNSET: undefined,
  };

  it("is the caller's environment: keys, base URLs and proxies reach the worker", () => {
    const env = buildWorkerEnv(caller);
    expect(env).toMatchObject({ PATH: '/usr/bin:/bin', ANTHROPIC_BASE_URL: 'http://proxy.example:8080', HTTPS_PROXY: 'http://corp-proxy:3128' });
    expect(env).not.toHaveProperty('UNSET');
  });

  it('drops every marker a parent Claude Code session sets (an inherited one turns off transcripts)', () => {
    const env = buildWorkerEnv(caller);
    for (const marker of ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_CHILD_SESSION', 'CLAUDE_CODE_SSE_PORT', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_PID']) {
      expect(PARENT_SESSION_MARKERS).toContain(marker);
      expect(env).not.toHaveProperty(marker);
    }
  });

  it("drops the caller's own tmux pointers", () => {
    const env = buildWorkerEnv(caller);
    expect(env).not.toHaveProperty('TMUX');
    expect(env).not.toHaveProperty('TMUX_PANE');
  });

  it('turns prompt suggestions off, whatever the caller had', () => {
    expect(buildWorkerEnv({ CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: '1' }).CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION).toBe('0');
  });

  it('sets TERM only when the caller has none', () => {
    expect(buildWorkerEnv({}).TERM).toBe('xterm-256color');
    expect(buildWorkerEnv({ TERM: 'screen-256color' }).TERM).toBe('screen-256color');
  });

  it('applies per-project removals, then additions (which win over every default)', () => {
    const env = buildWorkerEnv(caller, {
      remove: ['HTTPS_PROXY'],
      add: { ANTHROPIC_MODEL: 'claude-opus', CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: '1' },
    });
    expect(env).not.toHaveProperty('HTTPS_PROXY');
    expect(env.ANTHROPIC_MODEL).toBe('claude-opus');
    expect(env.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION).toBe('1');
  });

  it('never mutates the caller environment', () => {
    const copy = { ...caller };
    buildWorkerEnv(caller, { remove: ['PATH'], add: { X: '1' } });
    expect(caller).toEqual(copy);
  });
});
