import { beforeAll, describe, expect, it } from 'vitest';
import { WORKING_HINT } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, useRealClaude, submit, waitIdle, type Started } from './real-claude-fixture.ts';

// One start for both, in this order: the interrupted turn leaves no assistant reply, so the
// suggestion test still begins with none (a suggestion needs two), and a Claude Code start is
// ~2 s of CPU and 3-5 s of the file's time.
describe.sequential('interrupts and prompt suggestions on one Claude Code (suggestions enabled)', () => {
  const start = useRealClaude('all');
  let started: Started;
  beforeAll(async () => {
    started = await start({ renderer: 'fullscreen', promptSuggestions: true }, { suggestion: 'run the tests' });
  });

  it('MODE:hang keeps the turn working; Esc puts the prompt back in the box and C-u clears it', async () => {
    const { pane, fake } = started;
    await waitIdle(pane, 'start');
    const prompt = 'MODE:hang stall the stream';
    await submit(pane, prompt);
    // The spinner animates, so a working screen is never stable: wait for the footer itself.
    await pane.waitForScreen((s) => s.includes(WORKING_HINT), 'the working footer');
    expect((await readPane(pane)).state).toBe('working');
    // The footer can show before the request reaches the fake.
    await waitFor(() => fake.received.some((r) => r.reply?.kind === 'hang'), { what: 'the hanging request at the fake' });

    await pane.keys('Escape');
    // Esc before any reply text: the message leaves the transcript and its text returns to the box.
    await pane.waitStable('the prompt back in the box', { accept: (s) => s.includes(`❯\u00A0${prompt}`) && !s.includes(WORKING_HINT) });
    expect(await readPane(pane)).toMatchObject({ state: 'idle', promptBox: prompt, promptBoxKind: 'typed' });
    await pane.keys('C-u');
    await waitIdle(pane, 'the box after C-u');
    expect(await readPane(pane)).toMatchObject({ state: 'idle', promptBox: '' });
  });

  it('prompt suggestions (enabled): after two turns the fake\'s suggestion shows dim in the box', async () => {
    const { pane, fake } = started;
    const since = fake.received.at(-1)?.seq ?? 0;
    await waitIdle(pane, 'start');
    await submit(pane, 'first turn');
    await waitIdle(pane, 'the first turn');
    await submit(pane, 'second turn');
    await waitFor(() => fake.received.some((r) => r.seq > since && r.kind === 'suggestion'), { what: 'a prompt-suggestion request', timeoutMs: 30_000 });
    await pane.waitStable('the suggestion in the box', { accept: (s) => s.includes('❯\u00A0run the tests') });
    expect(await readPane(pane)).toMatchObject({ state: 'idle', promptBox: 'run the tests', promptBoxKind: 'suggestion' });
    // The suggestion fork never took a scripted reply: both turns got the default text.
    expect(fake.received.filter((r) => r.seq > since && r.kind === 'main').map((r) => r.summary!.lastPromptText)).toEqual(['first turn', 'second turn']);
  });
});
