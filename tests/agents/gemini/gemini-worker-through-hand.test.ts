/**
 * Issue 27, "Done means", for Gemini CLI 0.61.0: its real binary against the fake Gemini API,
 * driven only through `hand`. Under `ask`: dispatch into a worktree, brief approved, working, the
 * shell approval blocks the worker with its question quoted, the person answers with keys (hand
 * answer), the report write asks and is answered too, the worker settles with its report, its
 * commit lands (hand land + approve), and `hand stop` ends it by its exit command with status 0.
 * Under `off`: a shell command runs without asking, and dispatch said what the posture cannot do.
 * Its hooks (the second witness) reach the daemon and agree with the screen.
 * Nothing is seeded by the test: trust and settings come from dispatch.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini, type FakeGemini, type GeminiRequestRecord } from '../../../io/fake-model/gemini.ts';
import { makeGeminiWorld, watermark, type GeminiWorld } from './gemini-world.ts';
import { answer, blockedOnPermission, dispatchAndApprove, expectNeedsInputHeard, THE_WORK, witnessSaid } from '../through-hand-steps.ts';


let fake: FakeGemini;
let w: GeminiWorld;
beforeAll(async () => {
  fake = await startFakeGemini();
  w = await makeGeminiWorld('e2e-gemini', fake, 'ask');
});
afterAll(async () => {
  await w?.cleanup();
  await fake?.close();
});

const sentResultOf = (tool: string) => (r: GeminiRequestRecord) => r.kind === 'main' && (r.summary?.functionResponses ?? []).some((f) => f.name === tool);

/** Waits until blocked, checks the dialog, answers option 1 with keys through hand, returns the question. */
async function answerApproval(id: string, witness = false): Promise<string> {
  const dialog = await blockedOnPermission(w, id, '60s');
  if (witness) await expectNeedsInputHeard(w, id);
  // The dialog's words are the worker's: quoted and attributed on the wire (issue 37).
  expect(dialog.options[0]!.label).toBe(`worker ${id} wrote: "Allow once"`);
  await answer(w, id, 1, dialog);
  return dialog.question;
}

describe('a real Gemini CLI worker through hand', () => {
  it('under ask: blocks on its approval with the question quoted, takes the answer by keys, reports, lands and stops with status 0', async () => {
    const id = 'gem-ask';
    const since = watermark(fake);
    fake.queue([
      { kind: 'call', name: 'run_shell_command', text: 'I will commit.', args: { command: THE_WORK.commit, description: 'Commit the feature' } },
      { kind: 'call', name: 'write_file', text: 'I will write the report.', args: { file_path: w.reportPathOf(id), content: THE_WORK.report } },
      { kind: 'text', text: 'Done.' },
    ]);
    const d = await dispatchAndApprove(w, id, 'gemini');
    expect(d.json.postureGap ?? null).toBeNull();

    const first = await w.request(id, since, (r) => r.kind === 'main', 'the first agent-loop request');
    expect(first.auth).toBe('api-key');
    expect(first.body).toContain(`Read the brief at ${join(w.home, 'workers', id)}`);
    // The question is quoted word for word; the second witness (its Notification hook) agrees.
    expect(await answerApproval(id, true)).toBe(`worker ${id} wrote: "Allow execution of [Shell]?"`);
    await w.request(id, since, sentResultOf('run_shell_command'), 'the commit result');
    expect(await answerApproval(id)).toMatch(/\?"$/);

    const settled = await w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(readFileSync(w.reportPathOf(id), 'utf8')).toBe(THE_WORK.report);
    const row = await witnessSaid(w, id, 'AfterAgent');
    expect(row).toMatchObject({ agent: 'gemini', agentVersion: '0.61.0', hook: { word: 'idle' }, disputed: null });

    await w.landAndStop(id, 'Add the feature file');
  });

  it("under off: a shell command runs without asking, in kingshand's sandbox (no posture gap to name)", async () => {
    const set = await w.hand(['project', 'set', w.project, '--permissions', 'off', '--json']);
    expect(set.code, set.stdout + set.stderr).toBe(0);
    const id = 'gem-off';
    const since = watermark(fake);
    fake.queue([
      { kind: 'call', name: 'run_shell_command', text: 'I will make a file.', args: { command: 'touch off-made.txt && echo made', description: 'Make a file' } },
      { kind: 'call', name: 'write_file', args: { file_path: w.reportPathOf(id), content: THE_WORK.report } },
      { kind: 'text', text: 'Done.' },
    ]);
    // No witness hooks here (each is a Node start per turn): this worker is about the posture.
    const d = await w.dispatch(id, 'Make a file.', ['--env', 'HAND_WITNESS_HOOKS=off']);
    // In kingshand's sandbox the whole agent is fenced: off asks nothing of Gemini CLI it cannot do.
    expect(d.json.postureGap ?? null).toBeNull();
    expect((await w.hand(['approve', id, '--json'])).code).toBe(0);
    const ran = await w.request(id, since, sentResultOf('run_shell_command'), 'the shell result');
    // The command ran and succeeded: no exit code, no error in what Gemini CLI sent back. Its
    // output is not asserted: Gemini CLI 0.61 runs a command in a pty and, on a loaded machine,
    // can read the pty's exit before its last output (`Output: (empty)` with status 0, seen in a
    // suite run); the file below says the command ran in the worktree.
    const content = ran.summary!.functionResponses[0]!.content;
    expect(content).toMatch(/^Output: /m);
    expect(content).not.toMatch(/^(Exit Code|Error|Signal): /m);
    const settled = await w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(existsSync(join(w.worktreeOf(id), 'off-made.txt'))).toBe(true);
    const stop = await w.hand(['stop', id, '--json'], { timeoutMs: 60_000 });
    expect(stop.json?.exitCode, stop.stdout + stop.stderr).toBe(0);
  });
});
