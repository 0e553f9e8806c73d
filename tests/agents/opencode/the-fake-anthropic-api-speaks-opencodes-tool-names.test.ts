/**
 * The fake Anthropic API says its scripted calls in the tool names a request offers: OpenCode
 * (1.18.33) offers `read`, `write`, `bash`, `question` with camelCase inputs beside the same wire
 * as Claude Code. So the one script — trigger words, the brief read and its trigger acted on, a
 * queue filled in Claude Code's words — drives both; a request that offers Claude Code's names is
 * answered as before. OpenCode's title request gets a title, not Claude Code's JSON of one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, fakeReportContent, type FakeAnthropic } from '../../../io/fake-model/anthropic.ts';
import { assemble, readSse } from '../../harness/sse-client.ts';

/** The tools OpenCode 1.18.33 offers in its agent loop (read from its requests to the fake). */
const OPENCODE_TOOLS = ['bash', 'edit', 'glob', 'grep', 'question', 'read', 'skill', 'task', 'todowrite', 'webfetch', 'write'];

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function ask(f: FakeAnthropic, messages: unknown[], tools: string[] = OPENCODE_TOOLS, system = 'You are OpenCode, the best coding agent on the planet.') {
  const res = await fetch(`${f.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-fake', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-fake', stream: true, tools: tools.map((name) => ({ name, input_schema: { type: 'object' } })), system: [{ type: 'text', text: system }], messages }),
  });
  return assemble(await readSse(res, Date.now()));
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });

describe("the fake Anthropic API speaks OpenCode's tool names", () => {
  it('the brief is read with read{filePath}, and its trigger (MODE:report) writes with write{filePath, content}', async () => {
    fake = await startFakeAnthropic();
    const first = await ask(fake, [user('Read the brief at /w/brief.md in full before you start, then do the work it describes.')]);
    expect(first.toolUses).toEqual([{ name: 'read', input: { filePath: '/w/brief.md' } }]);
    const id = 'toolu_fake_brief_1';
    const second = await ask(fake, [
      user('Read the brief at /w/brief.md in full'),
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: { filePath: '/w/brief.md' } }] },
      // OpenCode's read result: the file's lines numbered inside <content>.
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: '<path>/w/brief.md</path>\n<content>\n1: Do it. MODE:report /w/out/report.md\n</content>' }] },
    ]);
    expect(second.toolUses).toEqual([{ name: 'write', input: { filePath: '/w/out/report.md', content: fakeReportContent('/w/out/report.md') } }]);
  });

  it('MODE:bash and MODE:ask become bash{command, description} and question{questions[{…, multiple}]}', async () => {
    fake = await startFakeAnthropic();
    const bash = await ask(fake, [user('MODE:bash go')]);
    expect(bash.toolUses[0]).toMatchObject({ name: 'bash', input: { command: expect.stringMatching(/^touch /), description: expect.any(String) } });
    const question = await ask(fake, [user('MODE:ask which db')]);
    const q = question.toolUses[0] as { name: string; input: { questions: Record<string, unknown>[] } };
    expect(q.name).toBe('question');
    expect(q.input.questions[0]).toMatchObject({ question: 'Which database should the fake project use?', header: 'Database', multiple: false });
    expect(q.input.questions[0]).not.toHaveProperty('multiSelect');
  });

  it("a queue filled in Claude Code's words is said in OpenCode's; a Claude Code request is answered unchanged", async () => {
    fake = await startFakeAnthropic();
    fake.queue([{ kind: 'tool_use', name: 'Edit', input: { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' } }, { kind: 'tool_use', name: 'Bash', input: { command: 'ls' } }]);
    expect((await ask(fake, [user('edit it')])).toolUses).toEqual([{ name: 'edit', input: { filePath: '/w/a.ts', oldString: 'a', newString: 'b' } }]);
    expect((await ask(fake, [user('list')], ['Bash', 'Read', 'Write'], 'You are Claude Code.'))).toMatchObject({ toolUses: [{ name: 'Bash', input: { command: 'ls' } }] });
  });

  it("OpenCode's title request is answered with a title", async () => {
    fake = await startFakeAnthropic();
    const title = await ask(fake, [user('say hello')], [], 'You are a title generator. You output ONLY a thread title. Nothing else.');
    expect(title.text).toBe('Fake session');
    expect(fake.received[0]!.kind).toBe('title');
  });
});
