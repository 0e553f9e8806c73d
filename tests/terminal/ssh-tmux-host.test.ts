/**
 * What the tmux host over ssh owes beyond the shared contract: workers run as the far-side
 * account on its own server under a 0700 state directory; screen reads use the one control
 * client (no ssh per read); no secret is in any argv; a dropped connection is "could not tell",
 * never gone, and the pushes come back when the host does.
 */
import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMaster, runRemote } from '../../io/ssh/run-remote.ts';
import { remoteLaunchEnv } from '../../io/ssh/remote-launch-env.ts';
import type { PaneEvent } from '../../io/terminal/types.ts';
import { FAR_NODE, startFarSideTmux, type FarSideTmux } from '../harness/far-side-tmux.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { startMock, waitForExit, waitForReading } from './mock-worker.ts';

describe('tmux host over ssh', () => {
  let far: FarSideTmux;
  const tools = makeTempDir('ssh-wrapper');
  /** Every ssh the host starts goes through this wrapper, which logs its argv (one line each). */
  const sshLog = join(tools.path, 'ssh.log');
  const notices: string[] = [];
  const dirs: Array<() => void> = [];

  function workerDir(label: string): string {
    const dir = makeTempDir(label);
    dirs.push(dir.cleanup);
    far.ownDir(dir.path);
    return dir.path;
  }
  const sshCalls = () => readFileSync(sshLog, 'utf8').split('\n').filter(Boolean);

  beforeAll(async () => {
    const wrapper = join(tools.path, 'ssh');
    writeFileSync(sshLog, '');
    writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${sshLog}'\nexec ssh "$@"\n`);
    chmodSync(wrapper, 0o700);
    far = await startFarSideTmux({ sshBin: wrapper, onNotice: (m) => notices.push(m) });
  }, 60_000);
  afterAll(async () => {
    try {
      await far?.cleanup();
    } finally {
      for (const cleanup of dirs) cleanup();
      tools.cleanup();
    }
  });

  it('a remote worker runs as the far-side account, its server socket in a 0700 state directory there', async () => {
    const dir = workerDir('ssh-who');
    const out = join(dir, 'who.json');
    const pane = await far.host.createPane({
      name: 'who',
      cwd: dir,
      env: { PATH: '/usr/bin:/bin' },
      argv: [FAR_NODE, '-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({uid: process.getuid(), cwd: process.cwd()}))`],
    });
    expect(await waitForExit(far.host, pane.paneId, 'the who-am-I probe to finish')).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ uid: far.sshd.uid, cwd: dir });
    const socketDir = statSync(join(far.stateDir, 'tmux'));
    expect(socketDir.uid).toBe(far.sshd.uid);
    expect(socketDir.mode & 0o777).toBe(0o700);
    await far.host.close(pane.paneId);
  });

  it('screen reads cross the one control client: twenty reads start no ssh', async () => {
    const { pane } = await startMock(far.host, { name: 'reads', dir: workerDir('ssh-reads'), program: far.mockProgram });
    await far.host.readVisible(pane.paneId);
    const before = sshCalls().length;
    for (let i = 0; i < 20; i++) expect((await far.host.readVisible(pane.paneId)).ok).toBe(true);
    expect(sshCalls().slice(before)).toEqual([]);
    await far.host.close(pane.paneId);
  });

  it('no secret is in any argv: the environment reaches the far side through a 0600 file there', async () => {
    const secret = `s3cret-${Math.random().toString(36).slice(2)}`;
    const dir = workerDir('ssh-secret');
    const out = join(dir, 'env.json');
    const pane = await far.host.createPane({
      name: 'secret',
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', KH_API_KEY: secret },
      argv: [FAR_NODE, '-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`],
    });
    expect(await waitForExit(far.host, pane.paneId, 'the env probe to finish')).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).KH_API_KEY).toBe(secret);
    expect(sshCalls().filter((line) => line.includes(secret))).toEqual([]);
    await far.host.close(pane.paneId);

    // The file itself, before a launcher reads it: the account's, 0600, in a 0700 directory.
    const launchDir = join(far.stateDir, 'launch-check');
    const started = await remoteLaunchEnv(far.target, launchDir, { KH_API_KEY: secret }, ['true']);
    const file = statSync(started.file);
    expect([file.uid, file.mode & 0o777]).toEqual([far.sshd.uid, 0o600]);
    expect(statSync(launchDir).mode & 0o777).toBe(0o700);
    expect(readFileSync(started.file, 'utf8')).toBe(`KH_API_KEY=${secret}`);
    await started.discard();
  });

  it('a dropped connection is could-not-tell, never gone; the pushes come back with the host', async () => {
    const { pane } = await startMock(far.host, { name: 'drop', dir: workerDir('ssh-drop'), program: far.mockProgram });
    const events: PaneEvent[] = [];
    const unsubscribe = far.host.subscribe(pane.paneId, (e) => events.push(e));
    try {
      const failedBefore = notices.filter((n) => n.includes('could not reconnect')).length;
      await far.sshd.stopServer();
      await closeMaster(far.target); // the one connection goes, and the control client with it
      // Past the local host's four reconnects: a remote host keeps trying while it is away.
      await waitFor(() => notices.filter((n) => n.includes('could not reconnect')).length >= failedBefore + 5, {
        what: 'five failed reconnects while sshd is down',
        timeoutMs: 30_000,
      });
      expect(await far.host.serverState()).toMatchObject({ state: 'unknown' });
      expect((await far.host.readVisible(pane.paneId)).ok).toBe(false);
      expect((await far.host.list()).ok).toBe(false);
      expect(events.filter((e) => e.type === 'exited')).toEqual([]);

      await far.sshd.startServer();
      await waitFor(() => notices.some((n) => n.includes('reconnected')), { what: 'the control client back over ssh', timeoutMs: 15_000 });
      events.length = 0;
      await far.host.typeText(pane.paneId, 'still here');
      await waitFor(() => events.some((e) => e.type === 'changed'), { what: 'a pushed change after the reconnect', timeoutMs: 10_000 });
      const typed = await waitForReading(far.host, pane.paneId, (r) => r.promptBox === 'still here', 'the typed text on the far screen');
      expect(typed.reading.promptBoxKind).toBe('typed');
      expect(events.filter((e) => e.type === 'exited')).toEqual([]);
    } finally {
      unsubscribe();
      await far.sshd.startServer();
    }
    await far.host.close(pane.paneId);
  });

  it('the far tmux server killed: its workers are reported exited, and a later worker is live', async () => {
    const { pane } = await startMock(far.host, { name: 'doomed', dir: workerDir('ssh-doomed'), program: far.mockProgram });
    const events: PaneEvent[] = [];
    const unsubscribe = far.host.subscribe(pane.paneId, (e) => events.push(e));
    try {
      // Killed on the far side by its own account, not through the host.
      await runRemote(far.target, ['tmux', '-S', join(far.stateDir, 'tmux', 'tmux.sock'), 'kill-server']);
      await waitFor(() => events.some((e) => e.type === 'exited'), { what: 'the worker reported exited after its server died', timeoutMs: 15_000 });
      expect(events.find((e) => e.type === 'exited')).toEqual({ type: 'exited', code: null });
      expect(await far.host.serverState()).toEqual({ state: 'stopped' });
    } finally {
      unsubscribe();
    }
    const later = await startMock(far.host, { name: 'later', dir: workerDir('ssh-later'), program: far.mockProgram });
    expect(later.pane.alive).toBe(true);
    await far.host.close(later.pane.paneId);
  });
});
