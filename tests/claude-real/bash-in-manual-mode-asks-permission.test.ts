import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_BOX } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, useRealClaude, submit, waitIdle } from './real-claude-fixture.ts';

describe('MODE:bash in manual permission mode stops at "Do you want to proceed?"', () => {
  const start = useRealClaude();

  it.each(['fullscreen', 'classic'] as const)('%s renderer: the prompt blocks until Yes, then the command runs', async (renderer) => {
    const { pane, fake, claude } = await start({ renderer, manualPermissions: true });
    await waitIdle(pane, 'start');
    await submit(pane, 'MODE:bash make a file');

    const dialog = await pane.waitStable('the permission prompt', { accept: (s) => s.includes('Do you want to proceed?') });
    expect(dialog).toMatch(/^ ❯ 1\. Yes$/m);
    expect(dialog).toContain('touch fake-artifact.txt');
    expect(dialog).not.toMatch(LIVE_BOX);
    expect(await readPane(pane)).toMatchObject({ state: 'blocked', blockedReason: 'permission', awaitingInput: true });
    const artifact = join(claude.worktree, 'fake-artifact.txt');
    expect(existsSync(artifact), 'nothing ran before the answer').toBe(false);

    await pane.keys('Enter');
    await waitFor(() => existsSync(artifact), { what: 'fake-artifact.txt after Yes', timeoutMs: 20_000 });
    await waitFor(() => fake.received.find((r) => r.summary?.toolResults.some((t) => t.content.includes('created fake-artifact.txt'))), {
      what: 'the command output to reach the fake as a tool_result',
    });
    await waitIdle(pane, 'the turn to finish');
  });
});
