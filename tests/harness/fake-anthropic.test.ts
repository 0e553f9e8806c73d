import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, fakeReportContent, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { assemble, readSse, type SseEvent } from './sse-client.ts';

const TOOLS = [{ name: 'Bash' }, { name: 'Write' }, { name: 'AskUserQuestion' }];
let fake: FakeAnthropic | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Block = Record<string, unknown>;
function userTurn(...blocks: (string | Block)[]): Record<string, unknown> {
  return { role: 'user', content: blocks.map((b) => (typeof b === 'string' ? { type: 'text', text: b } : b)) };
}

async function ask(f: FakeAnthropic, messages: unknown[], extra: Record<string, unknown> = {}) {
  const startedAt = Date.now();
  const res = await fetch(`${f.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-secret-value', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-opus-5-5', stream: true, tools: TOOLS, system: [{ type: 'text', text: 'You are Claude Code.' }], messages, ...extra }),
  });
  const events = await readSse(res, startedAt);
  return { res, events, ...assemble(events) };
}

describe('fake Anthropic Messages API', () => {
  it('listens on an ephemeral loopback port, one per instance', async () => {
    fake = await startFakeAnthropic();
    const other = await startFakeAnthropic();
    try {
      expect(fake.url).toBe(`http://127.0.0.1:${fake.port}`);
      expect(other.port).not.toBe(fake.port);
    } finally {
      await other.close();
    }
  });

  it('streams a plain reply as the SSE event sequence Claude Code expects, ending the turn', async () => {
    fake = await startFakeAnthropic();
    const { res, events, text, stopReason } = await ask(fake, [userTurn('hello')]);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(events.map((e) => e.event)).toEqual([
      'message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(text.length).toBeGreaterThan(0);
    expect(stopReason).toBe('end_turn');
    const usage = (events[0]!.data.message as { usage: { input_tokens: number } }).usage;
    expect(usage.input_tokens).toBeLessThan(1000); // prompt suggestions are skipped above 10 000
  });

  it('MODE:report <path> answers with a Write tool_use for that path, then closes the turn after the tool_result', async () => {
    fake = await startFakeAnthropic();
    const first = await ask(fake, [userTurn('MODE:report /w/report.md please')]);
    expect(first.stopReason).toBe('tool_use');
    expect(first.toolUses).toEqual([{ name: 'Write', input: { file_path: '/w/report.md', content: fakeReportContent('/w/report.md') } }]);
    const toolUseId = (first.events.find((e) => e.event === 'content_block_start' && (e.data.content_block as Block).type === 'tool_use')!
      .data.content_block as Block).id;
    const second = await ask(fake, [
      userTurn('MODE:report /w/report.md please'),
      { role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name: 'Write', input: {} }] },
      userTurn({ type: 'tool_result', tool_use_id: toolUseId, content: 'File created successfully', is_error: false }),
    ]);
    expect(second.stopReason).toBe('end_turn');
    expect(second.toolUses).toEqual([]);
    expect(fake.received[1]!.summary!.toolResults).toEqual([{ toolUseId, content: 'File created successfully', isError: false }]);
  });

  it('MODE:ask answers with one AskUserQuestion of 3 options and a header of at most 12 characters', async () => {
    fake = await startFakeAnthropic();
    const { toolUses } = await ask(fake, [userTurn('MODE:ask which db')]);
    expect(toolUses[0]!.name).toBe('AskUserQuestion');
    const q = (toolUses[0]!.input as { questions: { header: string; options: unknown[] }[] }).questions;
    expect(q).toHaveLength(1);
    expect(q[0]!.header.length).toBeLessThanOrEqual(12);
    expect(q[0]!.options).toHaveLength(3);
  });

  it('MODE:bash answers with a Bash tool_use that writes (so manual mode must ask)', async () => {
    fake = await startFakeAnthropic();
    const { toolUses } = await ask(fake, [userTurn('MODE:bash go')]);
    expect(toolUses[0]!.name).toBe('Bash');
    expect((toolUses[0]!.input as { command: string }).command).toMatch(/^touch /);
  });

  it('matches trigger words only in the last text block of the last user message, skipping system reminders', async () => {
    fake = await startFakeAnthropic();
    const merged = await ask(fake, [userTurn('<system-reminder>ctx</system-reminder>', 'MODE:bash failed turn', 'just talk')]);
    expect(merged.toolUses).toEqual([]);
    const reminded = await ask(fake, [userTurn('MODE:ask which db', '<system-reminder>MODE:bash</system-reminder>')]);
    expect(reminded.toolUses.map((t) => t.name)).toEqual(['AskUserQuestion']);
    expect(fake.received[1]!.summary!.lastPromptText).toBe('MODE:ask which db');
  });

  it('plays queued replies in order before any trigger word', async () => {
    fake = await startFakeAnthropic();
    fake.queue([{ kind: 'tool_use', name: 'Bash', input: { command: 'ls' } }, { kind: 'text', text: 'queued end' }]);
    const a = await ask(fake, [userTurn('MODE:ask ignored while the queue has items')]);
    expect(a.toolUses).toEqual([{ name: 'Bash', input: { command: 'ls' } }]);
    const b = await ask(fake, [userTurn({ type: 'tool_result', tool_use_id: 'x', content: 'ok' })]);
    expect(b.text).toBe('queued end');
    expect(fake.pending()).toBe(0);
  });

  it('answers prompt-suggestion and title requests without consuming the queue', async () => {
    fake = await startFakeAnthropic();
    fake.queue([{ kind: 'text', text: 'for the agent loop' }]);
    const suggestion = await ask(fake, [userTurn('[SUGGESTION MODE: suggest what the user might type next]')]);
    expect(suggestion.text).toBe('run the tests');
    const title = await ask(fake, [userTurn('fix the bug')], { tools: [], system: 'Generate a concise title for this session.' });
    expect(title.text).toContain('"title"');
    expect(fake.received.map((r) => r.kind)).toEqual(['suggestion', 'title']);
    expect(fake.pending()).toBe(1);
    expect((await ask(fake, [userTurn('go')])).text).toBe('for the agent loop');
  });

  it('can answer suggestion requests with no suggestion', async () => {
    fake = await startFakeAnthropic({ suggestion: null });
    const { text, stopReason } = await ask(fake, [userTurn('[SUGGESTION MODE: x]')]);
    expect(text).toBe('');
    expect(stopReason).toBe('end_turn');
  });

  it('MODE:slow streams one word at a time, spaced by the configured delay', async () => {
    fake = await startFakeAnthropic({ slowWordDelayMs: 60, slowWordCount: 5 });
    const { events, text } = await ask(fake, [userTurn('MODE:slow')]);
    const deltas = events.filter((e) => e.event === 'content_block_delta');
    expect(deltas).toHaveLength(5);
    expect(text.split(' ')).toHaveLength(5);
    // A lower bound only: load can delay delivery but never make the last word come sooner.
    expect(deltas.at(-1)!.at).toBeGreaterThanOrEqual(4 * 60 - 5); // timers may round down by a ms
  });

  it.each([
    ['MODE:hang', [], [] as string[]],
    ['a queued hang with text', [{ kind: 'hang', text: 'Thinking' }], ['content_block_start', 'content_block_delta']],
  ] as const)('%s keeps the stream open until close(), and close() does not wait for it', async (_, items, afterStart) => {
    fake = await startFakeAnthropic();
    fake.queue([...items]);
    const startedAt = Date.now();
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, tools: TOOLS, messages: [userTurn('MODE:hang')] }),
    });
    const seen: SseEvent[] = [];
    const reading = readSse(res, startedAt, seen).catch(() => 'aborted' as const);
    const raced = await Promise.race([reading, new Promise((r) => setTimeout(() => r('still open'), 300))]);
    expect(raced).toBe('still open');
    expect(seen.map((e) => e.event)).toEqual(['message_start', ...afterStart]);
    const closing = Date.now();
    await fake.close();
    fake = undefined;
    expect(Date.now() - closing).toBeLessThan(5_000);
    await reading;
    expect(seen.some((e) => e.event === 'message_stop')).toBe(false);
  });

  it('records each request with its kind and prompt, never the credential', async () => {
    fake = await startFakeAnthropic();
    await ask(fake, [userTurn('hello there')]);
    const [r] = fake.received;
    expect(r).toMatchObject({ method: 'POST', path: '/v1/messages', query: 'beta=true', auth: 'api-key', kind: 'main' });
    expect(r!.summary!.lastPromptText).toBe('hello there');
    expect(r!.headers['anthropic-version']).toBe('2023-06-01');
    expect(JSON.stringify(r)).not.toContain('sk-secret-value');
    fake.reset();
    expect(fake.received).toEqual([]);
  });

  it('answers the other paths harmlessly', async () => {
    fake = await startFakeAnthropic();
    expect((await fetch(`${fake.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    const count = await fetch(`${fake.url}/v1/messages/count_tokens?beta=true`, { method: 'POST', body: '{}' });
    expect(await count.json()).toEqual({ input_tokens: 42 });
    const models = await fetch(`${fake.url}/v1/models`);
    expect(((await models.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect((await fetch(`${fake.url}/nowhere`)).status).toBe(404);
    expect(fake.received.map((r) => r.path)).toEqual(['/api/hello', '/v1/messages/count_tokens', '/v1/models', '/nowhere']);
  });

  it('a queued error answers with its HTTP status, its headers and an Anthropic error body (retries, a failed turn, a usage limit)', async () => {
    fake = await startFakeAnthropic();
    fake.queue([{ kind: 'error', status: 529, errorType: 'overloaded_error', message: 'Overloaded', headers: { 'retry-after': '30' } }]);
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-opus-5-5', stream: true, tools: TOOLS, messages: [userTurn('hello')] }),
    });
    expect(res.status).toBe(529);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(fake.pending()).toBe(0);
  });

  it('a queued tool call with nameFrom takes the first of those names the request offers (Task in older releases, Agent in newer)', async () => {
    fake = await startFakeAnthropic();
    const call = { kind: 'tool_use' as const, name: 'Task', nameFrom: ['Agent', 'Task'], input: { description: 'd', prompt: 'p' } };
    fake.queue([call, call]);
    const newer = await ask(fake, [userTurn('go')], { tools: [...TOOLS, { name: 'Agent' }] });
    expect(newer.toolUses.map((t) => t.name)).toEqual(['Agent']);
    const older = await ask(fake, [userTurn('go')], { tools: [...TOOLS, { name: 'Task' }] });
    expect(older.toolUses.map((t) => t.name)).toEqual(['Task']);
  });

  it('the /compact summary request is its own kind: it takes a queued reply (a compaction held open) and otherwise answers a summary', async () => {
    fake = await startFakeAnthropic();
    const compact = userTurn('Your task is to create a detailed summary of the conversation so far, paying close attention to the user.');
    fake.queue([{ kind: 'text', text: 'queued summary' }]);
    expect((await ask(fake, [compact], { tools: [] })).text).toBe('queued summary');
    expect((await ask(fake, [compact], { tools: [] })).text).toContain('<summary>');
    expect(fake.received.map((r) => r.kind)).toEqual(['compact', 'compact']);
  });

  it('a Warmup request (2.0-era releases send it with tools, at any moment) never takes a queued reply', async () => {
    fake = await startFakeAnthropic();
    fake.queue([{ kind: 'text', text: 'for the agent loop' }]);
    await ask(fake, [userTurn('Warmup')]);
    expect(fake.received.map((r) => r.kind)).toEqual(['side']);
    expect((await ask(fake, [userTurn('go')])).text).toBe('for the agent loop');
  });
});
