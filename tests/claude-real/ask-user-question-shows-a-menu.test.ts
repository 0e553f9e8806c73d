import { expect, it } from 'vitest';
import { LIVE_BOX } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, useRealClaude, submit, waitIdle } from './real-claude-fixture.ts';

const start = useRealClaude();

it('MODE:ask: the AskUserQuestion menu replaces the box, and keys sent one at a time answer it', async () => {
  const { pane, fake } = await start({ renderer: 'fullscreen' });
  await waitIdle(pane, 'start');
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
    () => fake.received.find((r) => r.summary?.toolResults.some((t) => t.content.includes('Postgres'))),
    { what: 'the fake to receive the answer "Postgres" as a tool_result', timeoutMs: 30_000 },
  );
  expect(answered.summary!.toolResults[0]!.isError).toBe(false);
  await waitIdle(pane, 'the turn to finish after the answer');
});
