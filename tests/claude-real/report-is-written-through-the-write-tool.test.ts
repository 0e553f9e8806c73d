import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { waitFor } from '../helpers/temp.ts';
import { readPane, useRealClaude, submit, waitIdle } from './real-claude-fixture.ts';

const start = useRealClaude();

it('MODE:report <path>: the real Write tool creates the file with what the fake sent, and the fake gets the tool_result', async () => {
  const { pane, fake, claude } = await start({ renderer: 'fullscreen' });
  const report = join(claude.worktree, 'report.md');
  await waitIdle(pane, 'start');
  await submit(pane, `MODE:report ${report} then stop`);

  const resultRequest = await waitFor(
    () => fake.received.find((r) => r.summary?.toolResults.length),
    { what: 'the fake to receive the Write tool_result', timeoutMs: 30_000 },
  );
  const writeRequest = fake.received.find((r) => r.reply?.kind === 'tool_use' && r.reply.name === 'Write');
  if (writeRequest?.reply?.kind !== 'tool_use') throw new Error('the fake never answered with a Write tool_use');
  const sent = writeRequest.reply as unknown as { input: { file_path: string; content: string } };
  expect(sent.input.file_path).toBe(report);
  expect(existsSync(report)).toBe(true);
  expect(readFileSync(report, 'utf8')).toBe(sent.input.content);
  expect(resultRequest.summary!.toolResults).toEqual([
    expect.objectContaining({ toolUseId: `toolu_fake_${writeRequest.seq}`, isError: false }),
  ]);
  // The fake closed the turn with text, so Claude Code comes back to the box.
  const after = await waitIdle(pane, 'the turn to finish');
  expect(after).toContain('The tool finished');
  expect((await readPane(pane)).state).toBe('idle');
});
