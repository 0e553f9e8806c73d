import { beforeAll, describe, expect, it } from 'vitest';
import { LIVE_BOX, WORKING_HINT } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, submit, useRealClaude, waitIdle, type Started } from './real-claude-fixture.ts';

const IDLE = 'renderer: the live box (❯ + U+00A0) shows, nothing is working, the renderer is the pinned one';

/** What a start on a seeded HOME shows before anyone types: read only, so it runs first on a shared start. */
async function showsTheIdleBox(started: Started, renderer: 'fullscreen' | 'classic'): Promise<void> {
  const { pane, fake } = started;
  const screen = await waitIdle(pane, `${renderer} start`);
  expect(screen).toMatch(LIVE_BOX);
  expect(screen).not.toContain(WORKING_HINT);
  // No onboarding, API-key or trust screen got in the way.
  expect(screen).not.toMatch(/trust this folder|Detected a custom API key|Choose the text style/);
  expect(await pane.format('#{alternate_on}')).toBe(renderer === 'fullscreen' ? '1' : '0');
  expect(await readPane(pane)).toMatchObject({ state: 'idle', promptBox: '', promptBoxKind: 'empty', readable: true });
  // Starting sends no model request: the first one belongs to the first prompt.
  expect(fake.received.filter((r) => r.path === '/v1/messages')).toEqual([]);
}

describe('a seeded HOME starts Claude Code straight on the idle input box', () => {
  const start = useRealClaude();

  it(`fullscreen ${IDLE}`, async () => {
    await showsTheIdleBox(await start({ renderer: 'fullscreen' }), 'fullscreen');
  });
});

// The classic start authenticates with an approved API key (the fullscreen one with the bearer
// token): one start shows both the classic idle box and the key's use, in this order.
describe.sequential('classic renderer, with an API key approved by the seed', () => {
  const start = useRealClaude('all');
  const apiKey = 'sk-ant-api03-kh-fake-key-for-tests-only-0123456789ABCDEFGHIJ';
  let started: Started;
  beforeAll(async () => {
    started = await start({ renderer: 'classic', apiKey });
  });

  it(`classic ${IDLE}`, async () => {
    await showsTheIdleBox(started, 'classic');
  });

  it('the approved key is used without the "Detected a custom API key" question', async () => {
    const { pane, fake } = started;
    await waitIdle(pane, 'start with an approved key');
    expect(await readPane(pane)).toMatchObject({ state: 'idle' });
    await submit(pane, 'hello');
    const request = await waitFor(() => fake.received.find((r) => r.kind === 'main'), { what: 'the first model request' });
    expect(request.auth).toBe('api-key');
  });
});
