/**
 * The Hand reaches everything the daemon does (issue 22): every daemon method has an MCP tool
 * or a recorded reason to be CLI-only (cli/mcp/faces.ts, typed over contract/methods.ts), the
 * running `hand mcp` serves exactly those tools, and the work tools answer what the CLI's
 * `--json` prints for the same request, refusals included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp } from '../helpers/mcp-client.ts';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeWorkspaceWorld } from '../helpers/workspace-world.ts';
import { METHODS } from '../../contract/methods.ts';
import { MCP_FACE } from '../../cli/mcp/faces.ts';

let w: CliWorld;
let client: Client;

beforeAll(async () => {
  let ws: string;
  ({ w, ws } = await makeWorkspaceWorld('mcp-faces'));
  client = await connectMcp(w, ws);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await w?.cleanup();
}, 60_000);

const tool = (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args);

async function cli(args: string[]): Promise<any> {
  const r = await w.hand([...args, '--json']);
  expect(r.code, `hand ${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
}

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
    await cli(['annex', w.repo, '--name', 'shop', '--yolo']);
    const added = await tool('backlog_add', { id: 'feat', title: 'Add the feature', project: 'shop' });
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
