/**
 * The TerminalHost contract: one suite, run unchanged against every host (tmux, pty, herdr
 * through its double), each test driving the mock agent — a Claude-Code-like TUI — through the
 * real terminal the host provides.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PromptBoxNotEmptyError } from '../../contract/errors.ts';
import { guardedSendKey, guardedSendText, sendKeysOneByOne } from '../../io/terminal/guarded-send.ts';
import type { PaneEvent, TerminalHost } from '../../io/terminal/types.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { isIdleEmpty, screenText, startMock, waitForExit, waitForReading } from './mock-worker.ts';

export interface HostUnderTest {
  host: TerminalHost;
  cleanup(): Promise<void>;
  /**
   * Workers run as another account (a host over ssh): the program that starts the mock there,
   * the node that account runs, and what makes a worker's directory that account's own.
   */
  farSide?: { mockProgram: readonly string[]; node: string; ownDir(path: string): void };
}

export function describeHostContract(name: string, makeHost: () => Promise<HostUnderTest>): void {
  describe(`${name} host contract`, () => {
    let subject: HostUnderTest;
    let host: TerminalHost;
    const panes: string[] = [];
    const dirs: Array<() => void> = [];
    let counter = 0;

    beforeAll(async () => {
      subject = await makeHost();
      host = subject.host;
    });
    afterAll(async () => {
      await subject?.cleanup();
    });
    afterEach(async () => {
      try {
        // Bounded: a host that hangs on close must not keep the temp dirs from being removed.
        const bound = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
        for (const paneId of panes.splice(0)) await Promise.race([host.close(paneId).catch(() => {}), bound(15_000)]);
      } finally {
        for (const cleanup of dirs.splice(0)) cleanup();
      }
    });

    async function launch(env: Record<string, string> = {}) {
      const dir = makeTempDir(`${name}-worker`);
      dirs.push(dir.cleanup);
      subject.farSide?.ownDir(dir.path);
      const program = subject.farSide?.mockProgram;
      const started = await startMock(host, { name: `w${++counter}`, dir: dir.path, env, ...(program && { program }) });
      panes.push(started.pane.paneId);
      return { ...started, dir: dir.path, paneId: started.pane.paneId };
    }

    it('a worker reaches its first idle box, works on a prompt, and settles idle again', async () => {
      const { paneId } = await launch();
      await guardedSendText(host, paneId, 'MODE:slow walk through it');
      await waitForReading(host, paneId, (r) => r.state === 'working', 'the working spinner after the prompt');
      const settled = await waitForReading(host, paneId, isIdleEmpty, 'the idle box after the slow turn');
      expect(screenText(settled.screen)).toContain('❯ MODE:slow walk through it');
      expect(screenText(settled.screen)).toContain('stay visible for a while');
    });

    it('a menu raises changed events, reads as blocked, and is answered with keys one per call', async () => {
      const { paneId } = await launch();
      const events: PaneEvent[] = [];
      const unsubscribe = host.subscribe(paneId, (e) => events.push(e));
      await guardedSendText(host, paneId, 'MODE:ask pick one');
      const blocked = await waitForReading(host, paneId, (r) => r.state === 'blocked', 'the question menu');
      unsubscribe();
      expect(events.some((e) => e.type === 'changed')).toBe(true);
      expect(blocked.reading.awaitingInput).toBe(true);
      expect(blocked.reading.blockedReason).toBe('question');
      expect(screenText(blocked.screen)).toContain('❯ 1. SQLite');

      const reads = await sendKeysOneByOne(host, paneId, ['down', 'enter']);
      expect(reads).toHaveLength(2);
      // Each key's reading is the screen after its redraw, or after half a second without one: on a
      // loaded machine the agent may draw the moved selection later, so the menu is what is asked of
      // it. That Down landed before Enter, each once, is the answer the agent gives: Postgres.
      const afterDown = reads[0]!;
      expect(afterDown.ok && screenText(afterDown.screen)).toContain('Which database should the fake project use?');
      const done = await waitForReading(host, paneId, (r, s) => isIdleEmpty(r) && screenText(s).includes('you chose Postgres'), 'the answered question');
      expect(done.reading.awaitingInput).toBe(false);
    });

    it('a send into a box holding a suggestion is refused and nothing reaches the terminal', async () => {
      const { paneId } = await launch({ CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: '1', KH_MOCK_SUGGESTION: 'run the tests' });
      for (const prompt of ['first turn', 'second turn']) {
        await guardedSendText(host, paneId, prompt);
        await waitForReading(host, paneId, (r, s) => r.state === 'idle' && screenText(s).includes(`❯ ${prompt}`), `the end of "${prompt}"`);
      }
      const withSuggestion = await waitForReading(host, paneId, (r) => r.promptBoxKind === 'suggestion', 'the prompt suggestion');
      expect(withSuggestion.reading.promptBox).toBe('run the tests');
      const before = screenText(withSuggestion.screen);

      await expect(guardedSendText(host, paneId, 'steer now')).rejects.toBeInstanceOf(PromptBoxNotEmptyError);
      await expect(guardedSendKey(host, paneId, 'enter')).rejects.toThrow(/run the tests.*--allow-non-empty-box/s);
      const unchanged = await host.readVisible(paneId);
      expect(unchanged.ok && screenText(unchanged.screen)).toBe(before); // refused, and never cleared

      // Proof by ordering: Escape drops a suggestion but keeps typed text, and the terminal
      // delivers input in order — so after Escape an empty box and no third prompt line mean
      // neither the text nor an Enter was ever written.
      await host.sendKey(paneId, 'escape');
      const after = await waitForReading(host, paneId, isIdleEmpty, 'the box after Escape dropped the suggestion');
      expect(screenText(after.screen)).not.toContain('steer now');
      expect(screenText(after.screen).split('\n').filter((l) => l.startsWith('❯ ')).length).toBe(
        before.split('\n').filter((l) => l.startsWith('❯ ')).length,
      );
    });

    it('a first-key Enter into typed text is refused; the explicit override submits it', async () => {
      const { paneId } = await launch();
      await host.typeText(paneId, 'half typed');
      await waitForReading(host, paneId, (r) => r.promptBox === 'half typed' && r.promptBoxKind === 'typed', 'the typed text in the box');
      await expect(guardedSendKey(host, paneId, 'enter')).rejects.toBeInstanceOf(PromptBoxNotEmptyError);
      await expect(guardedSendText(host, paneId, 'more')).rejects.toBeInstanceOf(PromptBoxNotEmptyError);
      await guardedSendKey(host, paneId, 'enter', { allowNonEmptyBox: true });
      await waitForReading(host, paneId, (r, s) => isIdleEmpty(r) && screenText(s).includes('❯ half typed'), 'the submitted prompt');
    });

    it('/exit ends the worker and the exit status is reported as 0', async () => {
      const { paneId } = await launch();
      const exit = waitForExit(host, paneId, 'the worker to leave after /exit');
      await host.sendText(paneId, '/exit');
      expect(await exit).toBe(0);
      const listed = await host.list();
      expect(listed.ok && listed.panes.find((p) => p.paneId === paneId)).toMatchObject({ alive: false, exitCode: 0 });
    });

    // The two keys the worker machine's teardown sends at a menu (machines/worker.states.teardown.ts):
    // the host must deliver a lone Escape as Escape (not the start of a sequence), and /exit after it.
    it('Escape closes an open menu without choosing an option, and /exit then ends the worker', async () => {
      const { paneId } = await launch();
      await guardedSendText(host, paneId, 'MODE:ask pick one');
      await waitForReading(host, paneId, (r) => r.state === 'blocked' && r.awaitingInput, 'the question menu');
      await host.sendKey(paneId, 'escape');
      const closed = await waitForReading(host, paneId, (r) => isIdleEmpty(r) && !r.awaitingInput, 'the menu to close after Escape');
      expect(screenText(closed.screen)).not.toContain('❯ 1. SQLite');
      expect(screenText(closed.screen)).not.toContain('you chose');
      expect(screenText(closed.screen)).toContain('Interrupted'); // cancelled, the turn ended
      const exit = waitForExit(host, paneId, 'the worker to leave after /exit');
      await host.sendText(paneId, '/exit');
      expect(await exit).toBe(0);
    });

    it('a crash is reported as an exit with a non-zero status, and the last screen stays readable', async () => {
      const { paneId } = await launch();
      const exit = waitForExit(host, paneId, 'the crash');
      await guardedSendText(host, paneId, 'MODE:crash now');
      expect(await exit).toBe(3);
      const last = await host.readVisible(paneId);
      expect(last.ok).toBe(true);
    });

    it('100 KB of text arrives whole', async () => {
      const { paneId, dir } = await launch();
      const lines: string[] = [];
      for (let i = 0; lines.join('\n').length < 100 * 1024; i++) lines.push(`line ${i} ünïcödé 漢字 ${'x'.repeat(70)} ${i}`);
      const payload = lines.join('\n');
      const report = join(dir, 'report.md');
      await guardedSendText(host, paneId, `MODE:report ${report}\n${payload}`);
      await waitFor(() => readFileSync(report, 'utf8').includes('## Open questions'), { what: 'the report with the pasted text', timeoutMs: 30_000 });
      const written = readFileSync(report, 'utf8');
      expect(written.length).toBeGreaterThan(100 * 1024);
      expect(written).toContain(payload);
    });

    it('unicode and wide characters read back correctly', async () => {
      const { paneId } = await launch();
      const text = 'héllo 漢字 👍 ünï → done';
      await host.typeText(paneId, text);
      const typed = await waitForReading(host, paneId, (r) => r.promptBoxKind === 'typed', 'the typed unicode text');
      expect(typed.reading.promptBox).toBe(text);
      await guardedSendKey(host, paneId, 'enter', { allowNonEmptyBox: true });
      const done = await waitForReading(host, paneId, (r, s) => isIdleEmpty(r) && screenText(s).includes(`❯ ${text}`), 'the echoed unicode prompt');
      expect(screenText(done.screen).split('\n')).toContain(`❯ ${text}`);
    });

    it("text a command parser would read arrives as typed: quotes, a `;` at its end, formats, `$`, `~`, a leading `-`, a backslash", async () => {
      const { paneId } = await launch();
      const text = `-x it's "quoted" #{pane_id} $HOME ~ a\\b \\; end;`;
      await host.typeText(paneId, text);
      const typed = await waitForReading(host, paneId, (r) => r.promptBoxKind === 'typed' && r.promptBox === text, `the typed text ${JSON.stringify(text)}`);
      expect(typed.reading.promptBox).toBe(text);
      for (const key of [{ char: ';' }, { char: "'" }] as const) await host.sendKey(paneId, key);
      const keyed = await waitForReading(host, paneId, (r) => r.promptBox === `${text};'`, 'the two literal keys after the text');
      expect(keyed.reading.promptBox).toBe(`${text};'`);
    });

    it('every pane is its own full-width terminal: at least 100 columns, never split', async () => {
      const first = await launch();
      const second = await launch();
      for (const w of [first, second]) {
        expect(w.pane.cols).toBeGreaterThanOrEqual(100);
        const read = await host.readVisible(w.paneId);
        expect(read.ok && read.screen.cols).toBeGreaterThanOrEqual(100);
        // The box rule is drawn across the whole width the app sees.
        expect(read.ok && Math.max(...read.screen.lines.map((l) => [...l.text].length))).toBeGreaterThanOrEqual(100);
      }
      const listed = await host.list();
      expect(listed.ok).toBe(true);
      const mine = listed.ok ? listed.panes.filter((p) => p.paneId === first.paneId || p.paneId === second.paneId) : [];
      expect(mine).toHaveLength(2);
      for (const p of mine) {
        expect(p.cols).toBeGreaterThanOrEqual(100);
        expect(p.alive).toBe(true);
        expect(p.survivesRestart).toBe(host.survivesRestart);
      }
    });

    it('a worker gets exactly the environment it was given', async () => {
      const dir = makeTempDir(`${name}-env`);
      dirs.push(dir.cleanup);
      subject.farSide?.ownDir(dir.path);
      process.env.KH_TEST_HOST_ENV_LEAK = 'leaked';
      try {
        await host.ensureServer();
        const out = join(dir.path, 'env.json');
        const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', KH_GIVEN: 'yes; with spaces;' };
        const pane = await host.createPane({
          name: `env${++counter}`,
          cwd: dir.path,
          env,
          argv: [subject.farSide?.node ?? process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`],
        });
        panes.push(pane.paneId);
        expect(await waitForExit(host, pane.paneId, 'the env probe to finish')).toBe(0);
        expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(env);
      } finally {
        delete process.env.KH_TEST_HOST_ENV_LEAK;
      }
    });
  });
}
