/**
 * tmux workers outlive the process that started them: SIGKILL the owner, start again, re-attach
 * by pane id, read the same screen, and keep steering.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import { createTmuxHost, type TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { isIdleEmpty, ROOT, screenText, waitForReading } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';

describe('tmux host survives the death of its owner', () => {
  const defer = useCleanups();

  it('a worker keeps running after SIGKILL of its owner and is re-attached, read and steered by pane id', async () => {
    const dir = makeTempDir('tmux-survival');
    defer(dir.cleanup);
    const socketPath = join(dir.path, 'tmux.sock');
    const after: TmuxHost = createTmuxHost({ socketPath });
    defer(() => after.killServer());

    const owner = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tests/terminal/fixtures/tmux-owner.ts'), socketPath, dir.path], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ownerExit = once(owner, 'exit');
    defer(() => {
      if (owner.exitCode === null && owner.signalCode === null) owner.kill('SIGKILL');
    });
    const lines = createInterface({ input: owner.stdout! });
    const first = await Promise.race([
      once(lines, 'line').then(([line]) => JSON.parse(line as string) as { paneId: string; pid: number; screen: string }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out waiting for the owner to report its worker')), 45_000)),
    ]);

    owner.kill('SIGKILL');
    await ownerExit;

    // A new owner (this process) finds the pane by id, as a restarted daemon does from its snapshot.
    const info = await after.attach(first.paneId);
    expect(info).toMatchObject({ paneId: first.paneId, name: 'survivor', alive: true, pid: first.pid });
    const read = await after.readVisible(first.paneId);
    expect(read.ok && screenText(read.screen)).toBe(first.screen);

    await guardedSendText(after, first.paneId, 'are you still there');
    const settled = await waitForReading(
      after,
      first.paneId,
      (r, s) => isIdleEmpty(r) && screenText(s).includes('❯ are you still there') && screenText(s).includes('Hello from the mock agent'),
      'the reply to the prompt sent after re-attaching',
    );
    expect(settled.reading.state).toBe('idle');
  });
});
