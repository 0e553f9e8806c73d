/**
 * The real Claude Code as a `hand` worker, on both hosts: the fake model reads the brief named in
 * dispatch's first prompt and acts on its trigger. Each rule asserts on what `hand` reported
 * (wait/status/read JSON) and on real effects (files, what the fake model received).
 *
 * One worker per host walks the three rules in order (describe.sequential): dispatched with the
 * report brief, then given the question and the command by `hand send`, then stopped. A Claude
 * Code start costs about 2 s of CPU and 4-5 s to the first prompt; three starts per host where
 * one does the same screens was most of this file's time. Each test names what the previous left.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeReportContent, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { makeE2eWorld, repliedWithTool, sentResultOf, sentToolResult, watermark, type E2eWorld, useFakeAnthropic } from './e2e-world.ts';
import { waitStable } from '../helpers/screen-stable.ts';

/**
 * A shell command that still asks in acceptEdits. The fake's default (`touch …`) does not:
 * 2.1.332 in acceptEdits runs file commands such as touch inside the worktree without asking
 * (seen in this suite); running a program does ask.
 */
const NEEDS_PERMISSION = `node -e "require('fs').writeFileSync('fake-artifact.txt', 'x')"`;

let fake: FakeAnthropic;
useFakeAnthropic((f) => (fake = f));

// One installation for both hosts: dispatch takes the host per worker.
let w: E2eWorld;
beforeAll(async () => {
  w = await makeE2eWorld('e2e-turns', fake);
});
afterAll(async () => {
  await w?.cleanup();
});

for (const backend of ['tmux', 'pty'] as const) {
  describe.sequential(`real Claude Code worker on ${backend}`, () => {
    const id = `turns-${backend}`;

    it('a worker whose brief asks for a report writes it through the Write tool without asking, settles and is done', async () => {
      const since = watermark(fake);
      const reportPath = w.reportPathOf(id);
      const d = await w.dispatch(id, backend, `MODE:report ${reportPath}`);
      expect(d.json).toMatchObject({ id, backend, agent: 'claude', reportPath, worktree: w.worktreeOf(id) });
      // The brief was read by the real binary (Read tool), and its trigger led to the Write.
      await w.request(id, since, sentToolResult((c) => c.includes(`MODE:report ${reportPath}`)), `the brief of ${id} read back`);
      // acceptEdits (dispatch's settings.local.json) with the brief directory granted: the
      // report is written with nobody pressing a key — the Write result comes back on its own.
      const write = await w.request(id, since, sentToolResult((c) => c.includes(reportPath) && !c.includes('MODE:report')), `the Write result for ${id}`);
      expect(write.summary!.toolResults[0]!.isError, JSON.stringify(write.summary!.toolResults)).toBe(false);
      expect(readFileSync(reportPath, 'utf8')).toBe(fakeReportContent(reportPath));

      const settled = await w.wait(id, 'settled', '45s');
      expect(settled.code, settled.stdout + settled.stderr).toBe(0);
      expect(settled.json).toMatchObject({ reason: 'settled', state: 'idle', awaitingInput: false, promptBox: '' });
      const status = await w.status(id);
      expect(status).toMatchObject({ id, reportExists: true, live: true, backend, agent: 'claude' });
      expect(status.stage.split('.')[0]).toBe('done');
      // Trust came from dispatch's own seed: the worker never showed the dialog.
      const screen = await w.read(id);
      expect(screen).toContain('The tool finished');
      expect(screen).not.toContain('Accessing workspace:');
    });

    it('an AskUserQuestion menu blocks as a question; one key per call answers it and the worker goes on', async () => {
      // The worker the report test left done, at its empty box.
      const since = watermark(fake);
      const sent = await w.hand(['send', id, 'MODE:ask', '--json']);
      expect(sent.code, sent.stdout + sent.stderr).toBe(0);
      const ask = await w.request(id, since, repliedWithTool('AskUserQuestion'), `the question of ${id}`);
      const blocked = await w.wait(id, 'blocked', '45s');
      expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
      expect(blocked.json).toMatchObject({ reason: 'blocked', awaitingInput: true, blockedReason: 'question', readable: true });
      expect(await w.read(id)).toMatch(/^❯ 1\. SQLite/m);

      const down = await w.hand(['keys', id, 'down', '--json']);
      expect(down.code, down.stdout + down.stderr).toBe(0);
      // As a person does, read the menu before confirming: Claude Code drops an Enter that comes
      // a few hundred ms after its menu appeared (measured: taken after 1 s, dropped at ~0.4 s).
      await waitStable((accept, what, ms) => waitForScreen(w, id, accept, what, ms), 'the menu cursor on Postgres after one Down, settled', { quietMs: 700, accept: (s) => /^❯ 2\. Postgres/m.test(s) });
      const enter = await w.hand(['keys', id, 'enter', '--json']);
      expect(enter.code, enter.stdout + enter.stderr).toBe(0);

      // The result of that very call: the brief read back also says "Postgres" (the decision
      // convention's example), so a match on words alone took the brief for the answer.
      const answer = await w.request(id, since, sentResultOf(ask), `the answer of ${id}`);
      expect(answer.summary!.toolResults[0]!.content).toContain('Which database should the fake project use?');
      expect(answer.summary!.toolResults[0]!.content).toContain('Postgres');
      // The API has the answer, but on a loaded machine Claude Code may still draw its menu a while
      // (seen: 1.6 s): a wait then rightly says blocked. Settled is asked once the menu is gone.
      await waitForScreen(w, id, (s) => !/Enter to select/.test(s), 'the menu gone from the screen after the answer', 30_000);
      const settled = await w.wait(id, 'settled', '45s');
      expect(settled.code, settled.stdout + settled.stderr).toBe(0);
      expect(settled.json).toMatchObject({ reason: 'settled', awaitingInput: false, blockedReason: null });
      expect(await w.read(id)).toContain('→ Postgres');
    });

    it('a Bash permission prompt blocks as permission; stop presses Escape, then /exit ends with status 0', async () => {
      // The worker the question test left settled, at its empty box.
      const since = watermark(fake);
      const sent = await w.hand(['send', id, `MODE:bash[[${NEEDS_PERMISSION}]]`, '--json']);
      expect(sent.code, sent.stdout + sent.stderr).toBe(0);
      await w.request(id, since, repliedWithTool('Bash'), `the Bash call of ${id}`);
      const blocked = await w.wait(id, 'blocked', '45s');
      expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
      expect(blocked.json).toMatchObject({ reason: 'blocked', awaitingInput: true, blockedReason: 'permission' });
      const screen = await w.read(id);
      expect(screen).toContain('Do you want to proceed?');
      expect(screen).toContain(NEEDS_PERMISSION);
      // Nobody answered: the command never ran.
      expect(existsSync(join(w.worktreeOf(id), 'fake-artifact.txt'))).toBe(false);

      const stop = await w.hand(['stop', id, '--json']);
      expect(stop.code, stop.stdout + stop.stderr).toBe(0);
      expect(stop.json).toMatchObject({ exitCode: 0, paneReusable: true });
      const after = await w.wait(id, 'exited', '20s');
      expect(after.json).toMatchObject({ reason: 'gone' });
      // Escape declined the call (Claude Code reports it back as an error result), and no command ran.
      expect(existsSync(join(w.worktreeOf(id), 'fake-artifact.txt'))).toBe(false);
      expect((await w.status(id)).live).toBe(false);
    });
  });
}

/** Reads the worker's screen through `hand read` until it shows what the step expects. */
async function waitForScreen(w: E2eWorld, id: string, accept: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const start = Date.now();
  let last = '';
  while (Date.now() - start < timeoutMs) {
    last = await w.read(id);
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; hand read showed:\n${last}`);
}
