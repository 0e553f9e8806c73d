/**
 * The fake Gemini API answers as Gemini CLI 0.61.0 asks (shapes read off the wire): the router's
 * generateContent gets its complexity JSON without touching the queue, the agent loop's
 * streamGenerateContent?alt=sse gets `data:` lines of GenerateContentResponse with the queued
 * reply (a functionCall part for run_shell_command), and a read brief's trigger words are acted on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini, type FakeGemini } from '../../../io/fake-model/gemini.ts';

let fake: FakeGemini;
beforeAll(async () => {
  fake = await startFakeGemini();
});
afterAll(async () => fake?.close());

const TOOLS = [{ functionDeclarations: [{ name: 'run_shell_command' }, { name: 'read_file' }] }];

async function post(model: string, method: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${fake.url}/v1beta/models/${model}:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' }, body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const events = (sse: string) => sse.split('\r\n\r\n').filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice(6)));

describe('the fake Gemini API speaks the generateContent shapes', () => {
  it('the router gets its JSON; the agent loop gets the queued shell call as an SSE functionCall part', async () => {
    fake.queue([{ kind: 'call', name: 'run_shell_command', text: 'I will run it.', args: { command: 'echo hi' } }]);
    const router = await post('flash-lite', 'generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      generationConfig: { responseJsonSchema: { properties: { complexity_reasoning: {}, complexity_score: {} } } },
    });
    expect(JSON.parse(JSON.parse(router.text).candidates[0].content.parts[0].text)).toMatchObject({ complexity_score: 10 });
    expect(fake.pending()).toBe(1);
    const loop = await post('pro', 'streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'hello' }] }], tools: TOOLS });
    const [last] = events(loop.text).slice(-1);
    expect(last.candidates[0]).toMatchObject({ finishReason: 'STOP', content: { role: 'model', parts: [{ text: 'I will run it.' }, { functionCall: { name: 'run_shell_command', args: { command: 'echo hi' } } }] } });
    expect(fake.received.at(-1)).toMatchObject({ kind: 'main', auth: 'api-key' });
    expect(fake.received.at(-1)!.headers['x-goog-api-key']).toBeUndefined();
  });

  it("hand's first prompt makes it read the brief, and the brief's MODE:bash runs the command", async () => {
    const first = await post('pro', 'streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'Read the brief at /w/brief.md in full before you start.' }] }], tools: TOOLS });
    expect(events(first.text)[0].candidates[0].content.parts[1]).toEqual({ functionCall: { name: 'read_file', args: { file_path: '/w/brief.md' } } });
    const after = await post('pro', 'streamGenerateContent', {
      contents: [{ role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'Do it.\nMODE:bash[[touch x]]' } } }] }], tools: TOOLS,
    });
    expect(events(after.text)[0].candidates[0].content.parts[1]).toEqual({ functionCall: { name: 'run_shell_command', args: { command: 'touch x', description: 'Create a fake artifact file' } } });
  });
});
