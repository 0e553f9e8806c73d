/**
 * Two tool turns of the real Claude Code on one start (fullscreen, seeded, default permission
 * mode), in this order: the Write tool writes the report unprompted, then an AskUserQuestion menu
 * takes one key at a time. Each had a start of its own (~2 s of CPU and 3-5 s of start-up) only
 * to reach the same idle box; the second begins at the box the first left.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIVE_BOX } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, useRealClaude, submit, waitIdle, type Started } from './real-claude-fixture.ts';

describe.sequential('tool turns on one Claude Code start', () => {
  const start = useRealClaude('all');
  let started: Started;
  beforeAll(async () => {
    started = await start({ renderer: 'fullscreen' });
  });

  it('MODE:report <path>: the real Write tool creates the file with what the fake sent, and the fake gets the tool_result', async () => {
    const { pane, fake, claude } = started;
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

  it('MODE:ask: the AskUserQuestion menu replaces the box, and keys sent one at a time answer it', async () => {
    // The box the report turn left.
    const { pane, fake } = started;
    const since = fake.received.at(-1)?.seq ?? 0;
    await waitIdle(pane, 'the box after the report turn');
    await submit(pane, 'MODE:ask which db');

    // Dialogs drop keys sent as they open: wait for the menu and for the screen to settle.
    const menu = await pane.waitStable('the question menu', { accept: (s) => s.includes('Enter to select') });
    expect(menu).toContain('Which database should the fake project use?');
    expect(menu).toMatch(/^❯ 1\. SQLite$/m);
    expect(menu).not.toMatch(LIVE_BOX);
    expect(await readPane(pane)).toMatchObject({ state: 'blocked', blockedReason: 'question', awaitingInput: true });

    await pane.keys('Down');
    await pane.waitStable('the cursor on option 2', { accept: (s) => /^❯ 2\. Postgres$/m.test(s) });
    await pane.keys('Enter');
    const answered = await waitFor(
      () => fake.received.find((r) => r.seq > since && r.summary?.toolResults.some((t) => t.content.includes('Postgres'))),
      { what: 'the fake to receive the answer "Postgres" as a tool_result', timeoutMs: 30_000 },
    );
    expect(answered.summary!.toolResults[0]!.isError).toBe(false);
    await waitIdle(pane, 'the turn to finish after the answer');
  });
});
