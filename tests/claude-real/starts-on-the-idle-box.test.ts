import { describe, expect, it } from 'vitest';
import { LIVE_BOX, WORKING_HINT } from '../harness/real-claude.ts';
import { useRealClaude, waitIdle } from './real-claude-fixture.ts';

describe('a seeded HOME starts Claude Code straight on the idle input box', () => {
  const start = useRealClaude();

  it.each([
    ['fullscreen', '1'],
    ['classic', '0'],
  ] as const)('%s renderer: the live box (❯ + U+00A0) shows, nothing is working, the renderer is the pinned one', async (renderer, alternate) => {
    const { pane, fake } = await start({ renderer });
    const screen = await waitIdle(pane, `${renderer} start`);
    expect(screen).toMatch(LIVE_BOX);
    expect(screen).not.toContain(WORKING_HINT);
    // No onboarding, API-key or trust screen got in the way.
    expect(screen).not.toMatch(/trust this folder|Detected a custom API key|Choose the text style/);
    expect(await pane.format('#{alternate_on}')).toBe(alternate);
    // Starting sends no model request: the first one belongs to the first prompt.
    expect(fake.received.filter((r) => r.path === '/v1/messages')).toEqual([]);
  });
});
