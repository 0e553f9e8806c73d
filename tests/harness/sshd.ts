/**
 * A real OpenSSH server for tests, and a second local account as "the far side":
 * - sshd (Debian's openssh-server) on 127.0.0.1 on a free port, with its own host key and config
 *   in a temp dir (`-f <config> -D -e`); no system sshd or system config is touched;
 * - a fresh account (useradd, its own HOME, a locked-but-usable password field `*`);
 * - a generated key pair (no passphrase) whose public half is that account's authorized key;
 * - a known_hosts file with the server's key, so the client never accepts a host key silently.
 * `stop()` takes everything down again (sshd, the account's processes, the account and its
 * files, the keys) and is safe to call after a half-finished start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import { makeTempDir } from '../helpers/temp.ts';

export interface TestSshd {
  port: number;
  user: string;
  uid: number;
  gid: number;
  /** The account's HOME (on "the far side", which is this machine under another account). */
  home: string;
  /** Private key and known_hosts, readable by us only. */
  identityFile: string;
  knownHostsFile: string;
  /** A target for this server with its ControlPath under `controlDir`. */
  target(controlDir: string): SshTarget;
  /** Stops sshd (the account stays): "sshd stopped" faults. */
  stopServer(): Promise<void>;
  /**
   * Ends every connection this server holds (its per-connection sshd processes, by pid): with
   * the listener stopped too, the far side is unreachable, as a host behind a dropped network.
   */
  dropConnections(): Promise<void>;
  /** Starts sshd again on the same port with the same host key (nothing when it runs). */
  startServer(): Promise<void>;
  /**
   * The server's host key replaced by a new one (a reinstalled host, or a man in the middle):
   * sshd stopped, its connections dropped, a new key made, sshd started with it. Returns a
   * known_hosts file holding the new key, as a person has one after comparing its fingerprint.
   */
  rotateHostKey(): Promise<{ knownHostsFile: string; fingerprint: string }>;
  stop(): Promise<void>;
}

const SSHD = '/usr/sbin/sshd';
const READY_TIMEOUT_MS = 10_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits for sshd's own "Server listening" line on stderr (-e), bounded, naming what it saw. */
function waitListening(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`sshd did not say it listens on 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms; it said: ${seen}`)), READY_TIMEOUT_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(`Server listening on 127.0.0.1 port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited (${code}) before listening: ${seen}`));
    });
  });
}

/** Ends a far-host test: its world first (its workers reach through this server), then the server, even when the world's cleanup throws. */
export async function stopAfter(world: { cleanup(): Promise<void> } | undefined, sshd: TestSshd | undefined): Promise<void> {
  try {
    await world?.cleanup();
  } finally {
    await sshd?.stop();
  }
}

export async function startTestSshd(): Promise<TestSshd> {
  const dir = makeTempDir('sshd');
  // The account's HOME lives inside: the base must be traversable by that account.
  chmodSync(dir.path, 0o755);
  const user = `khssh${Math.random().toString(36).slice(2, 8)}`;
  let child: ChildProcess | null = null;
  let userMade = false;
  const home = join(dir.path, 'home');
  const keys = join(dir.path, 'client');

  const stopServer = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
  };

  const stop = async () => {
    await stopServer();
    if (userMade) {
      // The account's leftovers (tmux servers, workers), each by its pid, then the account itself.
      const ps = await execa('ps', ['-u', user, '-o', 'pid='], { reject: false });
      for (const pid of ps.stdout.split(/\s+/).filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await execa('userdel', ['-r', '-f', user], { reject: false });
    }
    dir.cleanup();
  };

  try {
    const port = await freePort();
    await execa('useradd', ['-m', '-d', home, '-s', '/bin/sh', '-p', '*', user]);
    userMade = true;
    const uid = Number((await execa('id', ['-u', user])).stdout.trim());
    const gid = Number((await execa('id', ['-g', user])).stdout.trim());

    // Client key pair (ours, 0600) and the account's authorized_keys (its own, 0600 in 0700).
    mkdirSync(keys, { mode: 0o700 });
    const identityFile = join(keys, 'id_ed25519');
    await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'kingshand-test', '-f', identityFile]);
    const sshDir = join(home, '.ssh');
    mkdirSync(sshDir, { mode: 0o700 });
    writeFileSync(join(sshDir, 'authorized_keys'), readFileSync(`${identityFile}.pub`), { mode: 0o600 });
    for (const path of [sshDir, join(sshDir, 'authorized_keys')]) chownSync(path, uid, gid);

    // The server's own host key and config; the host key goes into our known_hosts, nothing else.
    const server = join(dir.path, 'server');
    mkdirSync(server, { mode: 0o700 });
    const hostKey = join(server, 'host_ed25519');
    await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
    const knownHostsFile = join(keys, 'known_hosts');
    const hostPub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
    writeFileSync(knownHostsFile, `[127.0.0.1]:${port} ${hostPub}\n`, { mode: 0o600 });
    const config = join(server, 'sshd_config');
    writeFileSync(config, [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${join(server, 'sshd.pid')}`,
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin no',
      `AllowUsers ${user}`,
      'AuthorizedKeysFile .ssh/authorized_keys',
      'PrintMotd no',
      'AllowTcpForwarding yes',
      'MaxSessions 64',
      'MaxStartups 64',
      '',
    ].join('\n'), { mode: 0o600 });
    // sshd's privilege-separation directory (Debian's unit makes it; no system sshd runs here).
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

    /** Kills every connection's process: they are titled "sshd: <user>…" (privileged and the user's own). */
    const dropConnections = async () => {
      const ps = await execa('ps', ['-eo', 'pid=,args='], { reject: false });
      for (const line of ps.stdout.split('\n')) {
        const m = /^\s*(\d+)\s+sshd: (\S+)/.exec(line);
        if (!m || !m[2]!.startsWith(user)) continue;
        try {
          process.kill(Number(m[1]), 'SIGKILL');
        } catch {
          // gone already
        }
      }
    };
    const startServer = async () => {
      if (child && child.exitCode === null && child.signalCode === null) return; // running already
      const started = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = started;
      await waitListening(started, port);
    };
    await startServer();

    return {
      port,
      user,
      uid,
      gid,
      home,
      identityFile,
      knownHostsFile,
      target: (controlDir) => ({
        user,
        address: '127.0.0.1',
        port,
        identityFile,
        knownHostsFile,
        controlPath: join(controlDir, 'cm-%C'),
      }),
      stopServer,
      dropConnections,
      startServer,
      async rotateHostKey() {
        await stopServer();
        await dropConnections();
        rmSync(hostKey, { force: true });
        rmSync(`${hostKey}.pub`, { force: true });
        await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
        const pub = readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
        const rotated = join(keys, `known_hosts.rotated-${Date.now()}`);
        writeFileSync(rotated, `[127.0.0.1]:${port} ${pub}\n`, { mode: 0o600 });
        const fingerprint = (await execa('ssh-keygen', ['-l', '-f', `${hostKey}.pub`])).stdout.split(' ')[1]!;
        await startServer();
        return { knownHostsFile: rotated, fingerprint };
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
