import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LIVE_BOX } from '../harness/real-claude.ts';
import { readPane, useRealClaude, waitIdle } from './real-claude-fixture.ts';

const start = useRealClaude();

it('a worktree without a trust entry stops at the folder-trust dialog, whose default is "No, exit"', async () => {
  const { pane, fake, claude } = await start({ renderer: 'fullscreen', trusted: false });
  const dialog = await pane.waitStable('the trust dialog', { accept: (s) => s.includes('Accessing workspace:') });
  expect(dialog).toContain(claude.worktree);
  expect(dialog).toMatch(/^ ❯ No, exit$/m);
  expect(dialog).toMatch(/^ {3}Yes, I trust this folder$/m);
  expect(dialog).not.toMatch(LIVE_BOX);
  expect(await readPane(pane)).toMatchObject({ state: 'blocked', blockedReason: 'folder-trust', awaitingInput: true });
  expect(fake.received.filter((r) => r.path === '/v1/messages')).toEqual([]);

  // Down then Enter is the only way in; Claude Code then records the trust itself.
  await pane.keys('Down');
  await pane.waitStable('the cursor on "Yes"', { accept: (s) => /^ ❯ Yes, I trust this folder$/m.test(s) });
  await pane.keys('Enter');
  await waitIdle(pane, 'the box after trusting');
  const projects = (JSON.parse(readFileSync(claude.claudeJsonPath, 'utf8')) as { projects: Record<string, { hasTrustDialogAccepted?: boolean }> }).projects;
  expect(projects[claude.worktree]?.hasTrustDialogAccepted).toBe(true);
});
