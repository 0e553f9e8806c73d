/**
 * The real Claude Code 2.1.332 under the real fleet (in process, tmux): a text send into its
 * folder-trust dialog and into a Bash permission dialog (posture edits asks for running a program)
 * is refused with `awaiting-input`, and nothing reaches the pane — the fake model saw no new
 * request, the dialog is the same one (same fingerprint), Claude Code is still in it (a probe
 * key moves its cursor: an Enter from the send would have exited, or approved the command).
 * Then `answer` selects the person's option with the same fingerprint, one key at a time.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeClaudeSettings } from '../../io/agent/claude/index.ts';
import { HandError } from '../../contract/errors.ts';
import { answerDialog } from '../../daemon/fleet/answer.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { fakeRequest, watermark, useFakeAnthropic } from './e2e-world.ts';
import { makeFleetWorld, untilView, type FleetWorld } from './fleet-world.ts';
import { waitFor } from '../helpers/temp.ts';
import { waitStable, type WaitForScreen } from '../helpers/screen-stable.ts';

const RUNS_A_PROGRAM = `node -e "require('fs').writeFileSync('fake-artifact.txt', 'x')"`;

let fake: FakeAnthropic;
useFakeAnthropic((f) => (fake = f));

/** The screen as text, less what Claude Code animates by itself (the running tool's bullet blinks). */
async function stillScreen(w: FleetWorld, id: string): Promise<string> {
  const r = await w.fleet.readScreen(id);
  if (!r.ok) throw new Error(`no screen for ${id}: ${r.error}`);
  return r.text.replace(/^● /gm, '  ');
}

/** Claude Code drops keys sent while a dialog is still opening: probe only once its screen stopped changing. */
function dialogSettled(w: FleetWorld, id: string): Promise<string> {
  const waitForScreen: WaitForScreen = (accept, what, timeoutMs) =>
    waitFor(async () => {
      const text = await stillScreen(w, id);
      return accept(text) ? text : undefined;
    }, { what, timeoutMs, intervalMs: 100 });
  return waitStable(waitForScreen, `the dialog of ${id} settled`, { quietMs: 700 });
}

const messagesSince = (since: number) => fake.received.filter((r) => r.seq > since && r.path === '/v1/messages').length;

async function refusedSend(w: FleetWorld, id: string, text: string): Promise<HandError> {
  const err = await w.fleet.send(id, text, { allowNonEmptyBox: true }).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(HandError);
  return err as HandError;
}

describe('a send into a real dialog is refused', () => {
  const worlds: FleetWorld[] = [];
  afterAll(async () => {
    for (const w of worlds) await w.cleanup();
  });

  it('the trust dialog: refused quoting its options; no request reached the model; the dialog is untouched', async () => {
    // Everything dispatch seeds except the trust entry, so the binary shows its trust dialog.
    const w = await makeFleetWorld('e2e-send-trust', fake, {
      seedAgent: async (intent) => void writeClaudeSettings({ worktree: intent.worktree, briefDir: dirname(intent.briefPath), permissionMode: 'acceptEdits' }),
    });
    worlds.push(w);
    const id = 'trust-send';
    const since = watermark(fake);
    await w.dispatch(id, 'tmux', 'MODE:report never', { stallMs: 60_000 });
    const blocked = await untilView(w, id, (v) => v.blockedReason === 'folder-trust', 'the trust dialog');
    await dialogSettled(w, id);
    const before = await stillScreen(w, id);
    const err = await refusedSend(w, id, 'yes, trust it');
    expect(blocked.dialog, 'the dialog is read from the same screen as its reason').toBeTruthy();
    expect(err.code).toBe('awaiting-input');
    expect(err.message).toContain(`1. worker ${id} wrote: "No, exit" | 2. worker ${id} wrote: "Yes, I trust this folder"`); // quoted (issue 37)
    expect(err.message).toContain(`hand keys ${id}`);
    expect(await stillScreen(w, id)).toBe(before);
    // The probe: Down moves the cursor of the same dialog, so the agent is still in it, in order after the refused send.
    await w.fleet.key(id, 'down');
    const moved = await untilView(w, id, (v) => v.dialog?.cursor === 2, 'the cursor on "Yes, I trust this folder"');
    expect(moved.dialog!.fingerprint).toBe(blocked.dialog!.fingerprint);
    expect(moved.stage).toBe('starting.blocked');
    expect(messagesSince(since)).toBe(0);
  });

  it('a Bash permission dialog: refused; the model saw nothing new, the command did not run; answer 1 then runs it', async () => {
    const w = await makeFleetWorld('e2e-send-permission', fake);
    worlds.push(w);
    const id = 'perm-send';
    const since = watermark(fake);
    await w.dispatch(id, 'tmux', `MODE:bash[[${RUNS_A_PROGRAM}]]`, { stallMs: 60_000 });
    const blocked = await untilView(w, id, (v) => v.blockedReason === 'permission', 'the permission dialog');
    const requests = messagesSince(since);
    const requestsSeq = watermark(fake);
    await dialogSettled(w, id);
    const before = await stillScreen(w, id);
    const err = await refusedSend(w, id, 'what are you doing?');
    expect(blocked.dialog!.question).toBe('Do you want to proceed?');
    expect(err.code).toBe('awaiting-input');
    expect(err.message).toContain('"Do you want to proceed?"');
    expect(err.message).toContain(`1. worker ${id} wrote: "Yes"`); // the worker's words, quoted (issue 37)
    expect(await stillScreen(w, id)).toBe(before);
    await w.fleet.key(id, 'down');
    const moved = await untilView(w, id, (v) => v.dialog?.cursor === 2, 'the cursor on option 2');
    expect(moved.dialog!.fingerprint).toBe(blocked.dialog!.fingerprint);
    expect(messagesSince(since)).toBe(requests);
    expect(existsSync(join(w.worktreeOf(id), 'fake-artifact.txt'))).toBe(false);

    const answered = await answerDialog(w.fleet, { id, option: 1, fingerprint: moved.dialog!.fingerprint });
    expect(answered.keys).toEqual(['up', 'enter']);
    await waitFor(() => existsSync(join(w.worktreeOf(id), 'fake-artifact.txt')), { what: 'the command to run after Yes', timeoutMs: 20_000 });
    await fakeRequest(fake, requestsSeq, (r) => (r.summary?.toolResults.length ?? 0) > 0, 'the Bash tool result after Yes');
  });
});
