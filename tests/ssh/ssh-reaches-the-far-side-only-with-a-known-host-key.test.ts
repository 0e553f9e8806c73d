/**
 * The ssh layer against a real sshd and a second account: one multiplexed connection, argv
 * arriving on the far side exactly as given, and a host key that is not known refused.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMaster, RemoteCommandError, runRemote } from '../../io/ssh/run-remote.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { startTestSshd, type TestSshd } from '../harness/sshd.ts';

describe('ssh to another host', () => {
  let sshd: TestSshd;
  const local = makeTempDir('ssh-local');

  beforeAll(async () => {
    sshd = await startTestSshd();
  }, 30_000);
  afterAll(async () => {
    await closeMaster(sshd.target(local.path)).catch(() => {});
    await sshd?.stop();
    local.cleanup();
  });

  it('a command runs as the far-side account with its argv arriving element by element', async () => {
    const target = sshd.target(local.path);
    const tricky = [`it's "quoted"`, '$HOME', 'a;b', '`id`', ' spaced  out ', '*'];
    const out = await runRemote(target, ['sh', '-c', 'id -un; for a in "$@"; do printf "<%s>\\n" "$a"; done', 'sh', ...tricky]);
    expect(out.split('\n').filter(Boolean)).toEqual([sshd.user, ...tricky.map((a) => `<${a}>`)]);
  });

  it('one multiplexed connection: the master socket is under our control dir and reused', async () => {
    const target = sshd.target(local.path);
    await runRemote(target, ['true']);
    const sockets = readdirSync(local.path).filter((n) => n.startsWith('cm-'));
    expect(sockets).toHaveLength(1);
    // Ten commands, still one master.
    await Promise.all(Array.from({ length: 10 }, () => runRemote(target, ['true'])));
    expect(readdirSync(local.path).filter((n) => n.startsWith('cm-'))).toEqual(sockets);
  });

  it('a host key that is not in known_hosts is refused, never accepted silently', async () => {
    const other = makeTempDir('ssh-unknown');
    try {
      const knownHostsFile = join(other.path, 'known_hosts');
      writeFileSync(knownHostsFile, '', { mode: 0o600 });
      const target = { ...sshd.target(other.path), knownHostsFile };
      const err = await runRemote(target, ['true']).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(RemoteCommandError);
      expect((err as RemoteCommandError).unreachable).toBe(true);
      expect((err as RemoteCommandError).stderr).toMatch(/Host key verification failed|No .* host key is known/);
      // Nothing was learned: the file is still empty.
      expect(existsSync(knownHostsFile) && readFileSync(knownHostsFile, 'utf8')).toBe('');
    } finally {
      other.cleanup();
    }
  });
});
