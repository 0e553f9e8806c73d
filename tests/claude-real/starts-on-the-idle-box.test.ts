import { describe, expect, it } from 'vitest';
import { LIVE_BOX, WORKING_HINT } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, submit, useRealClaude, waitIdle } from './real-claude-fixture.ts';

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
    expect(await readPane(pane)).toMatchObject({ state: 'idle', promptBox: '', promptBoxKind: 'empty', readable: true });
    // Starting sends no model request: the first one belongs to the first prompt.
    expect(fake.received.filter((r) => r.path === '/v1/messages')).toEqual([]);
  });
});

describe('an API key approved by the seed', () => {
  const start = useRealClaude();

  it('is used without the "Detected a custom API key" question', async () => {
    const apiKey = 'sk-ant-api03-kh-fake-key-for-tests-only-0123456789ABCDEFGHIJ';
    const { pane, fake } = await start({ renderer: 'fullscreen', apiKey });
    await waitIdle(pane, 'start with an approved key');
    expect(await readPane(pane)).toMatchObject({ state: 'idle' });
    await submit(pane, 'hello');
    const request = await waitFor(() => fake.received.find((r) => r.kind === 'main'), { what: 'the first model request' });
    expect(request.auth).toBe('api-key');
  });
});
