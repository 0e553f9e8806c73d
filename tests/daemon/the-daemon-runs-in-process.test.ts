/**
 * The daemon is a library (issue 20): createDaemon on a temp home serves the seven core methods
 * — dispatch, status, wait, read, send, keys, stop — through the CLI's own client, with no Node
 * start per call, and closes without leaving a process or a socket behind.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { METHODS } from '../../contract/methods.ts';

const world = useDaemonWorld();

describe('the daemon runs in process', () => {
  it('serves dispatch, status, wait, read, send, keys and stop without a child process per call', async () => {
    const w = await world('in-process', { annexYolo: true });
    const d = await w.dispatch('a1', 'Write the report.');
    expect(d.id).toBe('a1');
    const settled = await w.call('wait', { id: 'a1', until: 'settled', timeoutMs: 30_000 });
    expect(settled.condition ?? settled.reason, JSON.stringify(settled)).toBeTruthy();
    const [row] = await w.call('status', { id: 'a1' });
    expect(row.condition).toBe('settled');
    const screen = await w.call('read', { id: 'a1' });
    expect(screen.text).toContain('❯');
    const key = await w.call('keys', { id: 'a1', key: 'x' });
    expect(key.promptBox, 'the box holds the typed key').toBe('x');
    await w.call('keys', { id: 'a1', key: 'backspace' });
    // `keys` answers after the next redraw or half a second; on a loaded machine the agent may draw
    // the key's effect later, and a send before it is refused, rightly, for the text still in the box.
    const emptied = await waitFor(w.daemon.fleet, 'a1', (v) => !v.promptBox, { timeoutMs: 10_000 });
    expect(emptied.by, `a1's box still held ${JSON.stringify(emptied.view?.promptBox)} 10 s after the backspace`).toBe('accepted');
    const sent = await w.call('send', { id: 'a1', text: 'Say done.' });
    expect(sent.sent).toBe(true);
    await w.call('wait', { id: 'a1', until: 'settled', timeoutMs: 30_000 });
    const stopped = await w.call('stop', { id: 'a1', timeoutMs: 15_000 });
    expect(stopped.condition).toBe('gone');
    expect(stopped.exitCode).toBe(0);
    await w.stop();
    expect(existsSync(w.paths.socket)).toBe(false);
  });

  it('refuses an unknown worker with the typed refusal the CLI turns into exit 1', async () => {
    const w = await world('in-process-refusal');
    const r = await w.refusal('status', { id: 'nobody' });
    expect(r.exitCode).toBe(1);
    expect(r.message).toContain('nobody');
  });

  it('serves exactly the methods contract/methods.ts names, and a prototype name is an unknown method', async () => {
    const w = await world('in-process-table');
    expect(Object.keys(w.daemon.methods).sort()).toEqual([...METHODS].sort());
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const r = await w.refusal(name);
      expect(r.code, name).toBe('unknown-method');
    }
    // one bad request never ends the server
    expect((await w.call('ping')).workers).toBe(0);
  });
});
