/**
 * hand host add | list | check | remove (issue 28): machines the fleet reaches over ssh. The
 * daemon keeps its own known_hosts and its ssh masters' sockets under its state directory
 * (`<home>/ssh`, 0700); a host key gets there only from a file the person names at `add`,
 * never by accepting what a server offers.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { hostReady, type HostRow } from '../../contract/methods/hosts.ts';
import { checkHost } from '../../io/ssh/host-check.ts';
import { farAgentProbes } from './far-agents.ts';
import { closeMaster } from '../../io/ssh/run-remote.ts';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import { targetFor, type FarHosts } from './far-hosts.ts';
import { LOCAL_HOST, type HostStore } from '../../persistence/host-store.ts';
import type { FleetStore } from '../../persistence/types.ts';
import { RefusedError } from '../../contract/errors.ts';
import { repoTopLevel } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';

export interface HostDeps {
  hosts: HostStore;
  /** The projects (project.host places one of them on a host) and the workers (a host with workers stays). */
  store: Pick<FleetStore, 'getProject' | 'listWorkers'>;
  /** The daemon's state directory. */
  home: string;
  /** Each host's changed-key condition (far-hosts.ts): a check tells it, a check that gets in or a trust ends it. */
  keys?: Pick<FarHosts, 'keyChanged' | 'noteKeyChanged' | 'clearKeyChanged'>;
}

/** The lines of a known_hosts file for this host, from a file the person named; refused with the fix when it has none. */
function hostKeyLines(file: string, address: string, port: number): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError('bad-known-hosts', `cannot read known_hosts file ${file}: ${(err as Error).message}`);
  }
  const lines = knownHostLines(text, address, port);
  if (lines.length === 0) {
    throw new UsageError('no-host-key', `${file} has no plain entry for ${port === 22 ? address : `[${address}]:${port}`} (hashed entries cannot be matched); ssh there once yourself and compare the fingerprint, then name that file`);
  }
  return lines;
}

/** Lines of a known_hosts text that name this host (plain entries; hashed ones cannot be matched). */
export function knownHostLines(text: string, address: string, port: number): string[] {
  const names = new Set([`[${address}]:${port}`, ...(port === 22 ? [address] : [])]);
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && l.split(/\s+/)[0]!.split(',').some((n) => names.has(n)));
}

/** At shutdown: every host's master connection leaves with the daemon (ControlPersist would keep it). */
export async function closeHostConnections(hosts: HostStore, home: string): Promise<void> {
  await Promise.all(hosts.list().map((row) => closeMaster(targetFor(home, row)).catch(() => {})));
}

export function hostHandlers(deps: HostDeps): Pick<MethodTable, 'host.add' | 'host.list' | 'host.check' | 'host.trust' | 'host.remove' | 'project.host'> {
  const sshDir = join(deps.home, 'ssh');
  const knownHostsFile = join(sshDir, 'known_hosts');
  const ensureSshDir = () => {
    mkdirSync(sshDir, { recursive: true, mode: 0o700 });
    chmodSync(sshDir, 0o700);
  };
  // A check that meets a changed key tells the host's condition, as every other ssh use does.
  const targetOf = (row: HostRow): SshTarget => ({ ...targetFor(deps.home, row), onHostKeyChanged: (change) => deps.keys?.noteKeyChanged(row.name, change) });
  const mustGet = (name: string): HostRow => {
    if (name === 'local') throw new UsageError('host-is-local', 'local is this machine: there is nothing to reach over ssh. Name a host from hand host list.');
    const row = deps.hosts.get(name);
    if (!row) throw new UsageError('no-such-host', `no host named ${JSON.stringify(name)}; see hand host list, or add it with hand host add ${name} <user>@<address>`);
    return row;
  };

  return {
    /**
     * The person accepts a host's new key (issue 43), after verifying it: the daemon's own
     * known_hosts keeps only the key lines the named file holds for this host (the old ones go),
     * the master connection made with the old key is closed, and the condition ends — its
     * workers read their screens again at once.
     */
    async 'host.trust'(p) {
      const row = mustGet(p.name);
      const lines = hostKeyLines(p.knownHosts, row.address!, row.port!);
      ensureSshDir();
      let known = '';
      try {
        known = readFileSync(knownHostsFile, 'utf8');
      } catch {
        known = '';
      }
      const old = new Set(knownHostLines(known, row.address!, row.port!));
      const kept = known.split('\n').filter((l) => l.trim() !== '' && !old.has(l.trim()));
      const tmp = `${knownHostsFile}.${process.pid}.tmp`;
      writeFileSync(tmp, `${[...kept, ...lines].join('\n')}\n`, { mode: 0o600 });
      renameSync(tmp, knownHostsFile);
      await closeMaster(targetFor(deps.home, row)).catch(() => {});
      const was = deps.keys?.keyChanged(row.name) ?? null;
      deps.keys?.clearKeyChanged(row.name);
      return { name: row.name, keys: lines.length, replaced: old.size, wasChanged: was !== null };
    },
    async 'host.add'(p) {
      if (p.name === 'local' || deps.hosts.exists(p.name)) {
        throw new UsageError('host-exists', `a host named ${p.name} already exists; remove it first (hand host remove ${p.name}) or pick another name`);
      }
      const at = p.destination.lastIndexOf('@');
      const user = p.destination.slice(0, at);
      const address = p.destination.slice(at + 1);
      const port = p.port ?? 22;
      if (p.identity && !existsSync(p.identity)) throw new UsageError('bad-identity', `identity file ${p.identity} does not exist; give the path of a private key (ssh-keygen -t ed25519 makes one)`);
      // The host key: only from the file the person named, only the lines naming this host.
      if (p.knownHosts !== undefined) {
        const lines = hostKeyLines(p.knownHosts, address, port);
        ensureSshDir();
        appendFileSync(knownHostsFile, `${lines.join('\n')}\n`, { mode: 0o600 });
      }
      deps.hosts.add({ name: p.name, user, address, port, identity: p.identity ?? null });
      return deps.hosts.get(p.name)!;
    },
    async 'host.list'() {
      return [LOCAL_HOST, ...deps.hosts.list().map((r) => ({ ...r, keyChanged: deps.keys?.keyChanged(r.name)?.reason ?? null }))];
    },
    async 'host.check'(p) {
      const row = mustGet(p.name);
      ensureSshDir();
      const checked = await checkHost(targetOf(row), farAgentProbes(), row.name);
      deps.hosts.recordCheck(row.name, checked.facts, checked.stateDir);
      // ssh got in with the key we know: whatever changed before, it is this host's key again.
      if (checked.facts.find((f) => f.what === 'ssh')?.answer === 'yes') deps.keys?.clearKeyChanged(row.name);
      return { name: row.name, ok: hostReady(checked.facts), facts: checked.facts };
    },
    async 'host.remove'(p) {
      const row = mustGet(p.name);
      // Its workers would be left with no way to reach their panes, worktrees or reports.
      const workers = deps.store.listWorkers().filter((w) => w.host === row.name).map((w) => w.id);
      if (workers.length > 0) {
        throw new RefusedError('host-has-workers', `host ${row.name} still has workers (${workers.join(', ')}); nothing was removed. Stop and discard them first (hand stop <id>, hand discard <id>), then remove the host.`, { host: row.name, workers });
      }
      // Its master connection goes with it (no error when there is none).
      await closeMaster(targetOf(row)).catch(() => {});
      deps.hosts.remove(row.name);
      return { ...row, removed: true as const };
    },
    async 'project.host'(p) {
      const project = deps.store.getProject(p.name);
      if (!project || project.name !== p.name) throw new RefusedError('unknown-project', `no project named ${JSON.stringify(p.name)}. \`hand projects\` lists them.`, { name: p.name });
      const row = mustGet(p.host);
      ensureSshDir();
      // git on that host says whether the path is a checkout, and its top level is what is kept.
      const repo = await onHost(targetOf(row), () => repoTopLevel(p.path));
      return { name: project.name, hosts: deps.hosts.placeProject(project.name, row.name, repo, p.default === true) };
    },
  };
}
