/**
 * The Hand as the person meets it: the REAL Claude Code 2.1.332 started in a workspace made by
 * `hand init`, against the fake model API. The scripted model annexes a temp repository,
 * dispatches a mock worker whose brief asks a question, waits on it through the MCP tools, then
 * tries to read a secret and to edit instructions.md. Checked: the first model request carries
 * the digest (SessionStart hook), CLAUDE.md and the skills; the wait result says blocked and
 * quotes the question; both forbidden calls are refused, the files are unchanged and the secret
 * never reaches the model API; no permission prompt is ever drawn for a hand call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestRecord } from '../../io/fake-model/anthropic.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { fakeRequest } from './e2e-world.ts';
import { HandSession } from './hand-session-world.ts';

const SECRET = 'kh-secret-0c7f-never-leaves-this-machine';
const QUESTION = 'Which database should the fake project use?';

const s = new HandSession();
let eventLog: string;

function toolResultOf(r: RequestRecord | undefined): { content: string; isError: boolean } {
  const t = r?.summary?.toolResults[0];
  if (!t) throw new Error(`request ${r?.seq} carries no tool result`);
  return t;
}

beforeAll(async () => {
  await s.open('hand-session');
  const repo = s.path('repo');
  makeTestRepo(repo, '# a project\n');
  mkdirSync(join(s.home, '.ssh'), { mode: 0o700 });
  writeFileSync(join(s.home, '.ssh', 'id_test'), `${SECRET}\n`, { mode: 0o600 });
  const brief = s.path('brief.md');
  writeFileSync(brief, '# Brief asker\n\n## Read first\n\nNothing.\n\n## Task\n\nMODE:ask pick a database before starting.\n');

  // KH_MOCK_EVENT_LOG reaches the mock worker only if the Hand's environment flows Claude Code →
  // MCP server → dispatch → worker, as a real worker's API settings must.
  eventLog = s.path('worker-events.jsonl');
  // `hand mcp` starts 3 s late, as on a loaded machine (the CI run where the first request offered
  // no hand tool): Claude Code 2.1.332 asks the first turn without waiting for it, and a call to a
  // hand tool then must still reach it.
  const slowMcp = { NODE_OPTIONS: `--require ${join(import.meta.dirname, '..', 'harness', 'slow-hand-mcp.cjs')}`, KH_TEST_SLOW_MCP_MS: '3000' };
  await s.init({ KH_MOCK_TICK_MS: '200', KH_MOCK_EVENT_LOG: eventLog, ...slowMcp });

  // The model's side of the first exchange, in order (each item answers one agent-loop request).
  const instructions = join(s.ws, 'instructions.md');
  s.fake.queue([
    { kind: 'tool_use', name: 'mcp__hand__annex', text: 'Registering the repository.', input: { repo, yolo: true } },
    { kind: 'tool_use', name: 'mcp__hand__dispatch', text: 'Starting a worker.', input: { id: 'asker', repo, brief, agent: 'mock', backend: 'tmux' } },
    { kind: 'tool_use', name: 'mcp__hand__wait', text: 'Waiting on it.', input: { id: 'asker', until: 'blocked', timeout: '60s' } },
    { kind: 'tool_use', name: 'Read', input: { file_path: join(s.home, '.ssh', 'id_test') } },
    { kind: 'tool_use', name: 'Read', input: { file_path: instructions } },
    { kind: 'tool_use', name: 'Edit', input: { file_path: instructions, old_string: '# Instructions', new_string: '# Rewritten by the Hand' } },
    { kind: 'text', text: 'The worker asks which database to use: SQLite, Postgres or None. Which one?' },
  ]);
  await s.startClaude();
}, 120_000);

afterAll(async () => {
  // The tool results Claude Code sent back, for a failure of the refusals' checks to explain itself.
  await s.close(['asker'], { 'TOOL RESULTS': JSON.stringify(s.fake?.received.filter((r) => r.kind === 'main').map((r) => r.summary?.toolResults), null, 1) });
}, 90_000);

describe('the Hand in real Claude Code, in a workspace made by hand init', () => {
  let first: RequestRecord;
  let instructionsBefore: string;

  it('starts on the idle box with no MCP approval question, and its first request carries the digest, CLAUDE.md and the skills', async () => {
    await s.atIdleBox();
    instructionsBefore = readFileSync(join(s.ws, 'instructions.md'), 'utf8');
    await s.person('hello, catch me up');
    first = await fakeRequest(s.fake, 0, (r) => r.kind === 'main', 'the first model request', 30_000);
    const body = first.raw!;
    expect(body).toContain('=== HAND DIGEST');
    expect(body).toContain('MEMORY: ');
    expect(body).toContain('You are the Hand');
    expect(body).toContain('Never answer a worker');
    for (const skill of ['muster', 'survey', 'audience', 'chronicle']) expect(body).toContain(skill);
    expect(body).toContain('The dispatcher. Load first for any project work'); // muster's description
    // No tool is deferred behind ToolSearch (issue 38 item 12): the model has each hand tool itself,
    // or, while the hand server still connects (here: always, it starts 3 s late), Claude Code's own
    // WaitForMcpServers, which the kit's CLAUDE.md tells the Hand to call. The annex below is called
    // in that window and still answered.
    const tools = first.summary!.tools;
    if (!tools.includes('mcp__hand__dispatch')) expect(tools).toContain('WaitForMcpServers');
    expect(tools).toContain('Monitor');
    expect(tools).not.toContain('ToolSearch');
    expect(first.summary!.tools).not.toContain('DeferredToolPlaceholder');
  }, 60_000);

  it('annexes, dispatches a mock worker and waits through the MCP tools; the wait result says blocked and quotes the question', async () => {
    // Claude Code hands the model the tool's structured content (the CLI's --json object) as compact JSON.
    const annexed = await fakeRequest(s.fake, first.seq, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the annex result', 30_000);
    expect(toolResultOf(annexed).isError, toolResultOf(annexed).content).toBe(false);
    expect(JSON.parse(toolResultOf(annexed).content)).toMatchObject({ name: 'repo', posture: 'local-only', yolo: true });
    const dispatched = await fakeRequest(s.fake, annexed.seq, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the dispatch result', 60_000);
    expect(JSON.parse(toolResultOf(dispatched).content)).toMatchObject({ id: 'asker', agent: 'mock', backend: 'tmux' });
    const waited = await fakeRequest(s.fake, dispatched.seq, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the wait result', 90_000);
    const result = toolResultOf(waited);
    expect(result.isError, result.content).toBe(false);
    expect(JSON.parse(result.content)).toMatchObject({ id: 'asker', reason: 'blocked', met: true, question: `worker asker wrote: "${QUESTION}"` });
    expect(JSON.parse(result.content).options).toEqual(expect.arrayContaining([expect.stringContaining('SQLite'), expect.stringContaining('Postgres')]));
    // Once connected, the hand tools are in the model's own list: called directly, no search first.
    const offered = s.fake.received.find((r) => r.kind === 'main' && (r.summary?.tools ?? []).some((t) => t.startsWith('mcp__hand__')));
    for (const tool of ['mcp__hand__dispatch', 'mcp__hand__wait', 'mcp__hand__report', 'mcp__hand__answer']) expect(offered?.summary?.tools, tool).toContain(tool);
    expect(s.fake.received.filter((r) => r.kind === 'main' && (r.summary?.tools ?? []).includes('ToolSearch')), 'no request offered ToolSearch').toEqual([]);
    expect(readFileSync(eventLog, 'utf8'), 'the worker ran with the Hand session\'s environment').toContain('menu-drawn');
  }, 120_000);

  it('refuses the read of a secret and the edit of instructions.md; both files unchanged; the secret never reaches the model', async () => {
    const after = s.fake.received.find((r) => (r.summary?.toolResults[0]?.content ?? '').includes(QUESTION))!.seq;
    const sshRead = await fakeRequest(s.fake, after, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the result of the secret read', 30_000);
    expect(toolResultOf(sshRead).isError).toBe(true);
    expect(toolResultOf(sshRead).content).toMatch(/denied|permission/i);
    const ownRead = await fakeRequest(s.fake, sshRead.seq, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the result of reading instructions.md', 30_000);
    expect(toolResultOf(ownRead).isError).toBe(false);
    const edit = await fakeRequest(s.fake, ownRead.seq, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the result of the edit', 30_000);
    expect(toolResultOf(edit).isError).toBe(true);
    expect(toolResultOf(edit).content).toMatch(/denied|permission/i);
    await s.pane!.waitForScreen((screen) => screen.includes('Which one?'), 'the closing reply', 30_000);
    expect(readFileSync(join(s.ws, 'instructions.md'), 'utf8')).toBe(instructionsBefore);
    expect(readFileSync(join(s.home, '.ssh', 'id_test'), 'utf8')).toBe(`${SECRET}\n`);
    for (const r of s.fake.received) expect(r.raw ?? '', `request ${r.seq}`).not.toContain(SECRET);
  }, 90_000);

  it('never drew a permission prompt for any hand call', () => {
    expect(s.screens.length).toBeGreaterThan(10);
    const prompted = s.promptedScreens();
    expect(prompted, prompted[0]).toHaveLength(0);
    expect(s.screens.some((screen) => screen.includes('Called hand'))).toBe(true);
    // Claude Code names a settings rule it cannot use on the screen: the kit's rules must all be usable.
    expect(s.screens.filter((screen) => /Deny rule|Allow rule|never matches/.test(screen))).toEqual([]);
  });
});
