/**
 * The real Codex CLI 0.169.0 against the fake Responses API under tmux: it starts unattended
 * (trust seeded by the product's seedCodexTrust, no login, no update or daemon), answers from the
 * fake, asks before an escalated command under `ask`, runs one without asking under `off`, and
 * ends by its own /exit with status 0.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/temp.ts';
import { startRealCodex, submitPrompt, type RealCodex } from './real-codex.ts';

const IDLE = 'Ask Codex to do anything';
let codex: RealCodex | undefined;

afterEach(async () => {
  await codex?.close();
  codex = undefined;
});

describe('Codex CLI runs unattended against the fake Responses API', () => {
  it('seeded trust starts on the idle box; ask puts an escalated command to a person; /exit ends with status 0', async () => {
    codex = await startRealCodex({ posture: 'ask' });
    const { pane, fake, worktree } = codex;
    const start = await pane.waitStable('the idle box', { accept: (s) => s.includes(IDLE) });
    expect(start).not.toContain('Trust this folder?');

    fake.queue([{ kind: 'text', text: 'Hello from the fake' }]);
    await submitPrompt(pane, 'say hello');
    await pane.waitForScreen((s) => s.includes('Hello from the fake') && s.includes(IDLE), 'the reply, then the idle box');
    expect(fake.turns()[0]?.summary?.lastUserText).toBe('say hello');
    expect(fake.turns()[0]?.auth).toBe('bearer');

    const target = join(worktree, 'escalated.txt');
    fake.queue([{ kind: 'shell', cmd: `touch ${target}`, escalate: 'May I create escalated.txt?' }]);
    await submitPrompt(pane, 'make the file');
    const ask = await pane.waitStable('the approval prompt', { accept: (s) => s.includes('Would you like to run the following command?') });
    expect(ask).toContain('Reason: May I create escalated.txt?');
    expect(ask).toMatch(/^› 1\. Yes, proceed \(y\)$/m);
    expect(existsSync(target), 'nothing ran before the answer').toBe(false);
    await pane.keys('y');
    await waitFor(() => existsSync(target), { what: 'escalated.txt after y', timeoutMs: 15_000 });
    await pane.waitForScreen((s) => s.includes('Done.') && s.includes(IDLE), 'the turn to end after the command');

    await pane.type('/exit');
    await pane.waitForScreen((s) => /^› \/exit\s*$/m.test(s), '/exit in the box');
    await pane.keys('Enter');
    const exit = await pane.waitDead(15_000);
    expect(exit.status).toBe(0);
    expect(await pane.capture()).toContain('To continue this session, run:');
  }, 40_000);

  it('under off a command runs without asking', async () => {
    codex = await startRealCodex({ posture: 'off' });
    const { pane, fake, worktree } = codex;
    await pane.waitStable('the idle box', { accept: (s) => s.includes(IDLE) });
    const target = join(worktree, 'unasked.txt');
    fake.queue([{ kind: 'shell', cmd: `touch ${target}` }]);
    await submitPrompt(pane, 'make the file');
    await waitFor(() => existsSync(target), { what: 'unasked.txt with no prompt', timeoutMs: 15_000 });
    const end = await pane.waitForScreen((s) => s.includes('Done.'), 'the turn to end');
    expect(end).not.toContain('Would you like to run the following command?');
    expect(end).toContain('permissions: YOLO mode');
  }, 30_000);

  it('without the trust seed a folder with its own .codex/ stops on "Trust this folder?"', async () => {
    codex = await startRealCodex({ posture: 'ask', trust: false });
    // Codex draws its box first and the trust screen about a second later, over it.
    const screen = await codex.pane.waitForScreen((s) => s.includes('Trust this folder?'), 'the trust screen');
    expect(screen).toMatch(/^› 1\. Trust and continue$/m);
  }, 30_000);
});
