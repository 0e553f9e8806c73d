import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { prepareClaudeRun, type PreparedClaudeRun } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { waitForExit, waitForQuiet, waitForReading } from '../terminal/mock-worker.ts';

type HostName = 'tmux' | 'pty';

/** A failed wait names what the host last showed and what it says of its panes. */
async function showScreenOnFailure<T>(host: TerminalHost, paneId: string, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (err) {
    const read = await host.readVisible(paneId);
    const screen = read.ok ? read.screen.lines.map((l) => l.text).join('\n') : read.error;
    throw new Error(`${(err as Error).message}\npanes: ${JSON.stringify(await host.list())}\n--- screen ---\n${screen}`);
  }
}

function makeHost(name: HostName, run: PreparedClaudeRun): { host: TerminalHost; stop(): Promise<void> } {
  if (name === 'pty') {
    const host = createPtyHost();
    return { host, stop: () => host.dispose() };
  }
  const host = createTmuxHost({ socketPath: join(run.root, 'host.sock') });
  return {
    host,
    async stop() {
      await host.dispose();
      await host.killServer();
    },
  };
}

// Part 3 of the end-to-end plan runs every scenario on both hosts: the real binary must start,
// take a prompt and exit through the product's own TerminalHost implementations, read by the
// product's own screen analysis.
describe('the real Claude Code runs under the product\'s terminal hosts', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setUp(name: HostName): Promise<{ fake: FakeAnthropic; run: PreparedClaudeRun; host: TerminalHost }> {
    const fake = await startFakeAnthropic();
    cleanups.push(() => fake.close());
    const run = await prepareClaudeRun({ baseUrl: fake.url, renderer: 'fullscreen' });
    cleanups.push(run.cleanup);
    const { host, stop } = makeHost(name, run);
    cleanups.push(stop);
    await host.ensureServer();
    return { fake, run, host };
  }

  it.each(['tmux', 'pty'] as const)('%s: idle box, MODE:report writes the file, /exit exits with status 0', async (name) => {
    const { fake, run, host } = await setUp(name);
    const pane = await host.createPane({ name: 'w1', cwd: run.worktree, env: run.env, argv: run.argv, cols: 120, rows: 40 });
    await waitForReading(host, pane.paneId, (r) => r.state === 'idle' && r.promptBoxKind === 'empty', 'the first idle box', 30_000);
    // As dispatch does: let the start-up finish drawing before typing (on a loaded machine an
    // Enter typed the moment the box appears can be lost, leaving the prompt in the box).
    await waitForQuiet(host, pane.paneId, 1000, 'the start-up to stop drawing', 30_000);

    const report = join(run.worktree, 'report.md');
    await host.sendText(pane.paneId, `MODE:report ${report}`);
    await showScreenOnFailure(host, pane.paneId, waitFor(() => existsSync(report), { what: `${report} written by the Write tool`, timeoutMs: 30_000 }));
    const sent = fake.received.find((r) => r.reply?.kind === 'tool_use' && r.reply.name === 'Write')!.reply as unknown as { input: { content: string } };
    expect(readFileSync(report, 'utf8')).toBe(sent.input.content);
    const done = await waitForReading(host, pane.paneId, (r, s) => r.state === 'idle' && s.lines.some((l) => l.text.includes('The tool finished')), 'the turn to finish');
    expect(done.reading.promptBox).toBe('');

    const exited = waitForExit(host, pane.paneId, 'the exit after /exit');
    await host.sendText(pane.paneId, '/exit');
    expect(await showScreenOnFailure(host, pane.paneId, exited)).toBe(0);
  });
});
