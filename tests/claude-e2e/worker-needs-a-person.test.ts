/**
 * Real Claude Code workers in the states where only a person may act, on both hosts: a prompt
 * suggestion in the box (send refuses), a hung stream (stalled). The untrusted folder and the
 * unreadable screen are at the fleet level (fleet-level-real-claude.test.ts): dispatch always
 * seeds trust where the worker reads it, and no CLI command narrows a pane.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { type E2eWorld, sentToolResult, useE2eWorld, watermark } from './e2e-world.ts';

const SUGGESTION = 'run the tests';
/**
 * The shortest stall threshold that still stands clear of Claude Code's own repaints: the test
 * waits on it, so a default-sized one (it was 8 s) is time spent doing nothing.
 */
const STALL_MS = 3_000;
let fake: FakeAnthropic;
let w: E2eWorld;
// One installation (daemon, database, tmux server) for both hosts: each worker has its own id,
// and dispatch takes the host per worker, so a second installation only repeated the start-up.
useE2eWorld('e2e-person', {}, { suggestion: SUGGESTION }, (made) => void ({ fake, w } = made));

for (const backend of ['tmux', 'pty'] as const) {
  describe(`real Claude Code worker waiting on a person, ${backend}`, () => {
    it('a prompt suggestion in the box makes send refuse and quote it; nothing is typed', async () => {
      const id = `suggest-${backend}`;
      const since = watermark(fake);
      // A Stop hook (the witness) makes Claude Code draw no suggestion: this worker runs without it.
      await w.dispatch(id, backend, 'Say hello.', ['--env', 'CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION=1', '--env', 'HAND_WITNESS_HOOKS=off']);
      await w.request(id, since, sentToolResult((c) => c.includes('Say hello.')), `the brief of ${id} read back`);
      // Two assistant turns are enough for a suggestion (claude-code.md §6.8): the brief's Read
      // and the closing text make two, so the first turn already ends with one.
      await w.request(id, since, (r) => r.kind === 'suggestion', `a prompt-suggestion request from ${id}`);
      const box = await waitForStatus(w, id, (s) => s.promptBox === SUGGESTION, `the suggestion in ${id}'s box`);
      expect(box).toMatchObject({ state: 'idle', awaitingInput: false, readable: true });

      const mainsBefore = fake.received.filter((r) => r.seq > since && r.kind === 'main').length;
      const refused = await w.hand(['send', id, 'MODE:bash', 'do', 'something', '--json']);
      expect(refused.code, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stdout + refused.stderr).toContain(SUGGESTION);
      expect(refused.json.error).toMatchObject({ code: 'prompt-box-not-empty', box: SUGGESTION, kind: 'suggestion' });
      const screen = await w.read(id);
      expect(screen).toMatch(new RegExp(`^❯\u00A0${SUGGESTION}`, 'm'));
      expect(screen).not.toContain('do something');
      expect(fake.received.filter((r) => r.seq > since && r.kind === 'main')).toHaveLength(mainsBefore);
      expect((await w.status(id)).promptBox).toBe(SUGGESTION);
    });

    it('a hung model stream is reported as stalled after the stall threshold', async () => {
      const id = `hang-${backend}`;
      const since = watermark(fake);
      await w.dispatch(id, backend, 'MODE:hang', ['--stall', `${STALL_MS}ms`]);
      await w.request(id, since, (r) => r.reply?.kind === 'hang', `the hung stream of ${id}`);
      const stalled = await w.wait(id, 'stalled', '60s');
      expect(stalled.code, stalled.stdout + stalled.stderr).toBe(0);
      expect(stalled.json).toMatchObject({ reason: 'stalled', readable: true, awaitingInput: false });
      expect(stalled.json.quietMs).toBeGreaterThanOrEqual(STALL_MS - 1_000);
    });
  });
}

/** Polls `hand status` (bounded) until the worker's row satisfies `accept`. */
async function waitForStatus(w: E2eWorld, id: string, accept: (row: Record<string, any>) => boolean, what: string, timeoutMs = 20_000): Promise<Record<string, any>> {
  const start = Date.now();
  let last: Record<string, any> = {};
  while (Date.now() - start < timeoutMs) {
    last = await w.status(id);
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; hand status showed ${JSON.stringify(last)}`);
}
