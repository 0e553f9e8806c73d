/**
 * The watch that checks an agent CLI reaches nothing beyond 127.0.0.1 (tests/helpers/
 * outside-connections.ts) must see what it is there to catch: a connection of the watched program
 * to an address of this machine that is not loopback is reported with its peer, a loopback one
 * too, and another program's is not.
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopback, peersOfProgram, procAddress, tableOfNamespace, watchConnections } from '../helpers/outside-connections.ts';

const open: (Server | Socket)[] = [];
afterEach(() => {
  for (const x of open.splice(0)) 'destroy' in x ? x.destroy() : x.close();
});

async function connectedPair(host: string): Promise<number> {
  const srv = createServer((s) => open.push(s)).listen(0, host === '127.0.0.1' ? host : '0.0.0.0');
  open.push(srv);
  await new Promise((r) => srv.once('listening', r));
  const port = (srv.address() as { port: number }).port;
  const s = connect(port, host);
  open.push(s);
  await new Promise((r) => s.once('connect', r));
  return port;
}

/** An IPv4 address of this machine that is not loopback (its own interface: no traffic leaves). */
const outward = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('the connection watch', () => {
  it('reads /proc addresses as ss writes them', () => {
    expect(procAddress('0100007F:0050')).toBe('127.0.0.1:80');
    expect(procAddress('00000000000000000000000001000000:1F90')).toBe('[::1]:8080');
    expect(procAddress('0000000000000000FFFF00000100007F:0050')).toBe('[::ffff:127.0.0.1]:80');
  });

  it.runIf(outward)('sees the watched program reach a non-loopback address, and a loopback one', async () => {
    const watch = watchConnections('node', 50);
    const far = await connectedPair(outward!);
    const near = await connectedPair('127.0.0.1');
    const { peers, samples } = await watch.stop();
    expect(samples).toBeGreaterThan(0);
    expect(peers).toContain(`${outward}:${far}`);
    expect(peers.filter((p) => !isLoopback(p))).toContain(`${outward}:${far}`);
    expect(peers).toContain(`127.0.0.1:${near}`);
  });

  it('reads a namespace\'s tables through a process still alive when the first listed has exited', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const gone = String(child.pid);
    await new Promise((r) => child.once('exit', r));
    expect(tableOfNamespace([gone, String(process.pid)], 'tcp')).toMatch(/^\s*sl\s+local_address/);
  });

  it("does not count another program's connections", async () => {
    const port = await connectedPair('127.0.0.1');
    expect(peersOfProgram('node')).toContain(`127.0.0.1:${port}`);
    expect(peersOfProgram('no-such-program')).toEqual([]);
  });
});
