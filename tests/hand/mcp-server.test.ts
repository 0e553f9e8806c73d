/**
 * `hand mcp` through the official SDK's client over stdio. Every daemon method has an MCP tool or a
 * recorded reason to be CLI-only (cli/mcp/faces.ts, issue 22) and the server serves exactly those. The tools are listed; each tool's
 * result is the object `hand <command> --json` prints for the same request (two twin workers
 * take the same steps, one through MCP and one through the CLI); refusals are tool errors with
 * the CLI's text and {error} object; `wait` reports progress while it waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp, closeMcpWorld } from '../helpers/mcp-client.ts';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeWorkspaceWorld } from '../helpers/workspace-world.ts';
import { METHODS } from '../../contract/methods.ts';
import { MCP_FACE } from '../../cli/mcp/faces.ts';

const TOOLS = ['annex', 'projects', 'dispatch', 'approve', 'reject', 'status', 'wait', 'read', 'send', 'keys', 'answer', 'stop', 'land', 'digest', 'survey', 'audience'];
let w: CliWorld;
let ws: string;
let client: Client;

beforeAll(async () => {
  ({ w, ws } = await makeWorkspaceWorld('hand-mcp'));
  client = await connectMcp(w, ws);
}, 60_000);

afterAll(() => closeMcpWorld(client, w), 60_000);

const tool = (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args);

async function cli(args: string[]): Promise<any> {
  const r = await w.hand([...args, '--json']);
  if (r.code !== 0) throw new Error(`hand ${args.join(' ')} exited ${r.code}: ${r.stdout}${r.stderr}`);
  return r.json;
}

/** A twin's result with its own id swapped for the other's and the clock fields dropped. */
function twin(value: unknown, from: string, to: string): unknown {
  const VOLATILE = new Set(['updatedAt', 'waitedMs', 'quietMs', 'stallAt', 'generatedAt', 'until', 'registeredAt', 'lastActivity']);
  const swapped = JSON.parse(JSON.stringify(value).replaceAll(from, to));
  const strip = (v: any): any => (Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !VOLATILE.has(k)).map(([k, x]) => [k, strip(x)])) : v);
  return strip(swapped);
}

describe('hand mcp', () => {
  it('lists the fleet tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(TOOLS));
    for (const t of tools) expect(t.description, t.name).toBeTruthy();
  });

  it('the tool descriptions say a dialog is answered only with answer or keys, a parked decision only with decide', async () => {
    const { tools } = await client.listTools();
    const about = (name: string) => tools.find((t) => t.name === name)!.description!;
    expect(about('send')).toMatch(/menu or dialog is answered only with answer or keys \(one key per call\), with the person's answer only; a parked decision only with hand decide/);
    expect(about('answer')).toMatch(/one per call/);
    expect(about('answer')).toMatch(/Only the person's answer/);
    expect(about('keys')).toMatch(/One key per call/);
  });

  it('annex and projects return what the CLI prints', async () => {
    await cli(['annex', w.repo, '--yolo']);
    const viaMcp = await tool('annex', { repo: w.repo, yolo: true });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    expect(viaMcp.value).toEqual(await cli(['annex', w.repo, '--yolo']));
    expect((await tool('projects')).value).toEqual(await cli(['projects']));
    // The project's default agent: recorded by annex and changed by project_set, as the CLI does.
    const withAgent = await tool('annex', { repo: w.repo, yolo: true, agent: 'mock' });
    expect(withAgent.value).toMatchObject({ defaultAgent: 'mock' });
    expect(withAgent.value).toEqual(await cli(['annex', w.repo, '--yolo', '--agent', 'mock']));
    const set = await tool('project_set', { name: withAgent.value.name, agent: 'mock' });
    expect(set.isError, set.text).toBe(false);
    expect(set.value).toEqual(await cli(['project', 'set', withAgent.value.name, '--agent', 'mock']));
    expect(set.value.defaultAgentChange).toEqual({ previous: 'mock', now: 'mock', changed: false });
  });

  it('dispatch, wait, status, read, keys and stop on twin workers return the same objects as the CLI', async () => {
    const briefOf = (id: string) => w.brief(id, 'MODE:ask pick one');
    const m = await tool('dispatch', { id: 'mtwin', repo: w.repo, brief: briefOf('mtwin'), agent: 'mock', backend: 'tmux' });
    expect(m.isError, m.text).toBe(false);
    const c = await cli(['dispatch', 'ctwin', '--repo', w.repo, '--brief', briefOf('ctwin'), '--agent', 'mock', '--backend', 'tmux']);
    expect(twin(m.value, 'mtwin', 'ctwin')).toEqual(twin(c, 'ctwin', 'ctwin'));

    const mw = await tool('wait', { id: 'mtwin', until: 'blocked', timeout: '30s' });
    const cw = await cli(['wait', 'ctwin', '--until', 'blocked', '--timeout', '30s']);
    // The question is the worker's words: quoted and attributed on both faces (issue 37).
    expect(mw.value).toMatchObject({ reason: 'blocked', question: 'worker mtwin wrote: "Which database should the fake project use?"' });
    expect(twin(mw.value, 'mtwin', 'ctwin')).toEqual(twin(cw, 'ctwin', 'ctwin'));

    expect(twin((await tool('status', { id: 'mtwin' })).value, 'mtwin', 'ctwin')).toEqual(twin(await cli(['status', 'ctwin']), 'ctwin', 'ctwin'));
    expect(twin((await tool('read', { id: 'mtwin' })).value, 'mtwin', 'ctwin')).toEqual(twin(await cli(['read', 'ctwin']), 'ctwin', 'ctwin'));
    expect(twin((await tool('keys', { id: 'mtwin', key: 'down' })).value, 'mtwin', 'ctwin')).toEqual(twin(await cli(['keys', 'ctwin', 'down']), 'ctwin', 'ctwin'));
    expect(twin((await tool('stop', { id: 'mtwin' })).value, 'mtwin', 'ctwin')).toEqual(twin(await cli(['stop', 'ctwin']), 'ctwin', 'ctwin'));
  }, 120_000);

  it('dispatch by a backlog item returns what hand dispatch --item prints (the item gives id, project and brief)', async () => {
    const project = (await cli(['projects']))[0].name as string;
    for (const id of ['mitem', 'citem']) await cli(['backlog', 'add', id, 'pick one', '--project', project, '--brief', w.brief(id, 'MODE:ask pick one')]);
    const m = await tool('dispatch', { item: 'mitem', agent: 'mock', backend: 'tmux' });
    expect(m.isError, m.text).toBe(false);
    expect(m.value).toMatchObject({ id: 'mitem', item: 'mitem' });
    const c = await cli(['dispatch', '--item', 'citem', '--agent', 'mock', '--backend', 'tmux']);
    expect(twin(m.value, 'mitem', 'citem')).toEqual(twin(c, 'citem', 'citem'));
    await tool('stop', { id: 'mitem' });
    await cli(['stop', 'citem']);
  }, 120_000);

  it('survey, audience and digest return what the CLI prints', async () => {
    expect(twin((await tool('survey')).value, '', '')).toEqual(twin(await cli(['survey']), '', ''));
    const since = '2020-01-01T00:00:00Z';
    expect(twin((await tool('audience', { since })).value, '', '')).toEqual(twin(await cli(['audience', '--since', since]), '', ''));
    expect(twin((await tool('digest')).value, '', '')).toEqual(twin(await cli(['digest', '--workspace', ws]), '', ''));
  });

  it('refusals are tool errors with the CLI message and its {error} object', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['status', { id: 'nobody' }, ['status', 'nobody']],
      ['land', { id: 'nobody' }, ['land', 'nobody']],
      ['approve', { id: 'nobody' }, ['approve', 'nobody']],
      ['reject', { id: 'nobody', reason: 'no' }, ['reject', 'nobody', '--reason', 'no']],
      ['send', { id: 'nobody', text: 'hi' }, ['send', 'nobody', 'hi']],
      ['keys', { id: 'nobody', key: 'two words' }, ['keys', 'nobody', 'two words']],
      ['dispatch', { id: 'bad', repo: w.repo, brief: join(w.root, 'no-such-brief.md'), agent: 'mock' }, ['dispatch', 'bad', '--repo', w.repo, '--brief', join(w.root, 'no-such-brief.md'), '--agent', 'mock']],
      ['audience', { since: 'soonish' }, ['audience', '--since', 'soonish']],
      ['dispatch', { agent: 'mock' }, ['dispatch', '--agent', 'mock']],
    ];
    for (const [name, args, argv] of cases) {
      const viaMcp = await tool(name, args);
      const viaCli = await w.hand([...argv, '--json']);
      expect(viaCli.code, `${name}: ${viaCli.stdout}`).not.toBe(0);
      expect(viaMcp.isError, `${name}: ${viaMcp.text}`).toBe(true);
      expect(viaMcp.text, name).toBe(viaCli.stderr.replace(/^hand: /, '').trimEnd());
      expect(viaMcp.value, name).toEqual(viaCli.json);
    }
  }, 90_000);

  it('wait sends progress notifications while the worker works', async () => {
    const brief = w.brief('slow', 'MODE:slow take a while');
    expect((await tool('dispatch', { id: 'slow', repo: w.repo, brief, agent: 'mock' })).isError).toBe(false);
    const progress: { progress: number; message?: string }[] = [];
    const r = (await client.callTool({ name: 'wait', arguments: { id: 'slow', until: 'settled', timeout: '60s' } }, undefined, { timeout: 90_000, onprogress: (p) => progress.push(p) })) as { isError?: boolean; content: { text: string }[] };
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    expect(JSON.parse(r.content[0]!.text)).toMatchObject({ id: 'slow', reason: 'settled' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]!.message).toMatch(/^slow /);
  }, 120_000);
});

describe('every daemon method has a face', () => {
  it('each method has an MCP tool or a reason to be CLI-only, and the server serves exactly those tools', async () => {
    expect(Object.keys(MCP_FACE).sort()).toEqual([...METHODS].sort());
    const wanted = Object.values(MCP_FACE).flatMap((f) => ('tool' in f ? [f.tool] : []));
    for (const f of Object.values(MCP_FACE)) if ('cliOnly' in f) expect(f.cliOnly.length).toBeGreaterThan(20);
    const { tools } = await client.listTools();
    const served = tools.map((t) => t.name).sort();
    // digest is a tool over several methods (the CLI's hand digest), not one method
    expect(served).toEqual([...new Set([...wanted, 'digest'])].sort());
    for (const t of tools) expect(t.description?.length ?? 0, t.name).toBeGreaterThan(20);
  });

  it('backlog, decisions, afk and usage tools answer what the CLI prints with --json', async () => {
    // the repository is registered (as `repo`) by the annex test above
    const added = await tool('backlog_add', { id: 'feat', title: 'Add the feature', project: 'repo' });
    expect(added.isError, added.text).toBe(false);
    const strip = (v: any) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'updatedAt' || k === 'createdAt' ? undefined : x)));
    expect(strip(added.value)).toEqual(strip(await cli(['backlog', 'show', 'feat'])));
    expect((await tool('backlog_ready')).value).toEqual(await cli(['backlog', 'ready']));
    const held = await tool('backlog_hold', { id: 'feat', reason: 'waiting for the spec', kind: 'person' });
    expect(held.value.hold).toEqual({ kind: 'person', reason: 'waiting for the spec' });
    expect((await tool('backlog_list')).value).toEqual(await cli(['backlog', 'list']));
    expect((await tool('decisions')).value).toEqual(await cli(['decisions']));
    expect((await tool('afk_status')).value).toEqual(await cli(['afk', 'status']));
    const usage = await tool('usage');
    expect(usage.value.line).toBe((await cli(['usage'])).line);
  });

  it('a refusal is a tool error carrying the CLI refusal text', async () => {
    const r = await tool('decide', { key: 'no-such-decision', answer: 'SQLite' });
    expect(r.isError).toBe(true);
    const c = await w.hand(['decide', 'no-such-decision', 'SQLite', '--json']);
    expect(c.code).toBe(1);
    expect(r.value.error.message).toBe(c.json.error.message);
  });
});
