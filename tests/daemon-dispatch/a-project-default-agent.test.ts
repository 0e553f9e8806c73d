/**
 * Issue 27 item 5: a project's default agent. `hand annex --agent` and `hand project set --agent`
 * record it; `hand dispatch` without --agent runs it and says so; an explicit --agent wins; an
 * unknown name is refused naming the agents that exist, with nothing changed. One in-process
 * daemon (real SQLite, git, tmux, the mock agent) carries every step, so the file stays lean.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWorldForAll } from '../helpers/cleanups.ts';
import { AGENTS } from '../../contract/vocabulary.ts';
import { chooseAgent } from '../../daemon/fleet/agent-choice.ts';
import { makeDaemonWorld, type DaemonWorld } from '../helpers/daemon-world.ts';

/** A dispatch as `hand dispatch` sends it when the person typed no --agent. */
function dispatchWithoutAgent(w: DaemonWorld, id: string, extra: Record<string, unknown> = {}) {
  return w.call('dispatch', { id, repo: w.repo, brief: w.brief(id, 'Say hello.'), backend: 'tmux', readPaths: [], env: w.env, ...extra });
}
const projectOf = async (w: DaemonWorld) => (await w.call<{ name: string; defaultAgent: string | null }[]>('projects'))[0]!;

describe('a project default agent', () => {
  it('is chosen by the flag first, then the project, then claude', () => {
    expect(chooseAgent('codex', { defaultAgent: 'gemini' })).toEqual({ agent: 'codex', by: 'flag' });
    expect(chooseAgent(undefined, { defaultAgent: 'gemini' })).toEqual({ agent: 'gemini', by: 'project-default' });
    expect(chooseAgent(undefined, { defaultAgent: null })).toEqual({ agent: 'claude', by: 'built-in-default' });
  });

  // The rules below build on each other in order (one daemon, one project), as a person would run them.
  let w: DaemonWorld;
  let name: string;
  useWorldForAll(() => makeDaemonWorld('default-agent'), (made) => {
    w = made;
  }, 20_000);

  it('annex records the default agent (its answer, hand projects, the survey)', async () => {
    const annexed = await w.call('annex', { repo: w.repo, yolo: true, agent: 'mock' });
    name = annexed.name;
    expect(annexed).toMatchObject({ defaultAgent: 'mock', updated: false });
    expect(await projectOf(w)).toMatchObject({ defaultAgent: 'mock' });
    expect((await w.call('survey')).projects[0]).toMatchObject({ defaultAgent: 'mock' });
  });

  it('dispatch without --agent runs the project default and says it chose it', async () => {
    const d = await dispatchWithoutAgent(w, 'da1');
    expect(d).toMatchObject({ agent: 'mock', agentChosenBy: 'project-default' });
    await w.call('wait', { id: 'da1', until: 'settled', timeoutMs: 30_000 });
    expect((await w.call('status', { id: 'da1' }))[0]).toMatchObject({ agent: 'mock', state: 'idle' });
  }, 40_000);

  it('re-annex without --agent keeps the default agent', async () => {
    // The project is gated from here, so the dispatches below answer at the brief gate without starting an agent.
    expect(await w.call('annex', { repo: w.repo, yolo: false })).toMatchObject({ defaultAgent: 'mock', updated: true });
  });

  it('project set changes the default agent and says what it was', async () => {
    const set = await w.call('projectSet', { name, agent: 'gemini' });
    expect(set.defaultAgentChange).toEqual({ previous: 'mock', now: 'gemini', changed: true });
    expect(set).toMatchObject({ defaultAgent: 'gemini', permissions: 'off', changed: false });
    expect(await projectOf(w)).toMatchObject({ defaultAgent: 'gemini' });
  });

  it('an explicit --agent wins over the project default', async () => {
    expect(await dispatchWithoutAgent(w, 'da2', { agent: 'mock' })).toMatchObject({ agent: 'mock', agentChosenBy: 'flag', gated: true });
  });

  it("the project default's own profile refuses what it cannot run (Gemini CLI without HOME), nothing created", async () => {
    const { HOME: _home, ...noHome } = w.env;
    const gemini = await w.refusal('dispatch', { id: 'da3', repo: w.repo, brief: w.brief('da3', 'x'), backend: 'tmux', readPaths: [], env: noHome });
    expect(gemini.code).toBe('gemini-home-unknown');
    expect(existsSync(join(w.paths.workers, 'da3'))).toBe(false);
    expect(await dispatchWithoutAgent(w, 'da4')).toMatchObject({ agent: 'gemini', agentChosenBy: 'project-default', gated: true });
  });

  it('an unknown agent is refused naming the agents that exist, on annex, project set and dispatch, with nothing changed', async () => {
    for (const [method, params] of [
      ['annex', { repo: w.repo, agent: 'cursor' }],
      ['projectSet', { name, agent: 'cursor' }],
      ['dispatch', { id: 'da5', repo: w.repo, brief: w.brief('da5', 'x'), agent: 'cursor', env: w.env }],
    ] as const) {
      const r = await w.refusal(method, params);
      expect(r.code, method).toBe('bad-agent');
      for (const a of AGENTS) expect(r.message, method).toContain(a);
    }
    expect(await projectOf(w)).toMatchObject({ defaultAgent: 'gemini' });
    expect(existsSync(join(w.paths.workers, 'da5'))).toBe(false);
  });
});
