/**
 * The daemon's reach to its hosts (issue 28): for each host row, its ssh target (the daemon's
 * own known_hosts and master sockets under `<home>/ssh`) and, made on first use and kept for
 * the daemon's life, the tmux TerminalHost on that host's private server
 * (`<remote state dir>/tmux/tmux.sock`). A worker's host is looked up by name on every use, so
 * workers restored after a daemon restart find theirs the same way.
 *
 * A host whose key changed (io/ssh/host-key.ts, issue 43) is the host's own condition, kept
 * here: every ssh use of its target that meets the refusal says so, its workers read "could not
 * tell — host key changed" with how to verify and accept the key, and nothing is typed into its
 * panes until the person accepts it (`hand host trust`) or a check gets in again.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { HostRow } from '../../contract/methods/hosts.ts';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import { hostKeyChangedText, hostKeyFix, type HostKeyChange } from '../../io/ssh/host-key.ts';
import { createTmuxHost, type TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import type { HostStore } from '../../persistence/host-store.ts';

/**
 * The daemon's ssh target for a host row: its own known_hosts and master sockets under `<home>/ssh`.
 * The socket is named by a short hash of user@address:port rather than ssh's `%C` (40 hex): a
 * Unix socket path holds at most ~104 bytes, ssh adds a 17-character suffix while it binds, and
 * with `%C` a state directory deeper than ~45 characters could not hold a master at all
 * ("unix_listener: path … too long for Unix domain socket").
 */
export function targetFor(home: string, row: Pick<HostRow, 'user' | 'address' | 'port' | 'identity'>): SshTarget {
  const id = createHash('sha256').update(`${row.user}@${row.address}:${row.port}`).digest('hex').slice(0, 12);
  return {
    user: row.user!,
    address: row.address!,
    port: row.port!,
    ...(row.identity && { identityFile: row.identity }),
    knownHostsFile: join(home, 'ssh', 'known_hosts'),
    controlPath: join(home, 'ssh', `cm-${id}`),
  };
}

export interface FarHost {
  name: string;
  target: SshTarget;
  /** The state directory there (learnt by `hand host check`). */
  stateDir: string;
  /** HOME there: the state directory's parent. */
  home: string;
}

export interface FarHosts {
  /** The host named, checked; a refusal naming the fix when it is unknown or never checked. */
  get(name: string): FarHost;
  /** The tmux host on that machine (made on first use); undefined for an unknown host. */
  terminal(name: string): TmuxHost | undefined;
  /** Stops watching every far server (their panes stay, as local tmux panes do). */
  dispose(): Promise<void>;
  /** The host's changed key, said with its fix (null: none seen since it was last accepted). */
  keyChanged(name: string): HostKeyCondition | null;
  /** ssh refused the host for a changed key (told by its target, or by a check). */
  noteKeyChanged(name: string, change: HostKeyChange): void;
  /** The key was accepted, or ssh got in again: the condition ends. */
  clearKeyChanged(name: string): void;
  /** Told when a host's key condition begins ('changed') or ends ('accepted'). */
  onKeyCondition(listener: (name: string, state: 'changed' | 'accepted') => void): void;
}

export interface HostKeyCondition {
  since: number;
  offered: string | null;
  /** "host key changed: … Nothing is typed into its workers until …" */
  reason: string;
  /** The commands that verify and accept the key. */
  fix: string;
}

export function createFarHosts(deps: { hosts: HostStore; home: string; onNotice?: (message: string, fields: Record<string, unknown>) => void; answerBoundMs?: number }): FarHosts {
  const terminals = new Map<string, TmuxHost>();
  const keys = new Map<string, HostKeyCondition>();
  const listeners = new Set<(name: string, state: 'changed' | 'accepted') => void>();
  const noteKeyChanged = (name: string, change: HostKeyChange): void => {
    const row = deps.hosts.get(name);
    if (!row || !row.user || !row.address || !row.port) return;
    const where = { user: row.user, address: row.address, port: row.port };
    const known = keys.get(name);
    keys.set(name, { since: known?.since ?? Date.now(), offered: change.offered ?? known?.offered ?? null, reason: hostKeyChangedText(name, where, change), fix: hostKeyFix(name, where) });
    if (known) return;
    deps.onNotice?.('a far host refused ssh: its host key changed; its workers could not be told until the key is verified and accepted', { host: name, offered: change.offered });
    for (const l of listeners) l(name, 'changed');
  };
  const get = (name: string): FarHost => {
    const row = deps.hosts.get(name);
    if (!row) throw new UsageError('no-such-host', `no host named ${JSON.stringify(name)}; see hand host list, or add it with hand host add ${name} <user>@<address>`, { host: name });
    if (!row.stateDir) throw new RefusedError('host-not-checked', `host ${name} has not been checked, so its state directory is not known; run hand host check ${name} first.`, { host: name });
    // Every ssh use of this target that meets a changed key tells the host's condition.
    const target: SshTarget = { ...targetFor(deps.home, row), onHostKeyChanged: (change) => noteKeyChanged(name, change) };
    return { name, target, stateDir: row.stateDir, home: row.stateDir.replace(/\/[^/]+\/?$/, '') || '/' };
  };
  /** Nothing is typed into a host whose key changed: refused before ssh is even asked, with the fix. */
  const refuseWhileKeyChanged = (name: string, paneId: string): void => {
    const k = keys.get(name);
    if (k) throw new RefusedError('host-key-changed', `could not tell — ${k.reason}; nothing was typed into ${paneId} on ${name}. Fix: ${k.fix}.`, { host: name, offered: k.offered });
  };
  return {
    get,
    keyChanged: (name) => keys.get(name) ?? null,
    noteKeyChanged,
    clearKeyChanged(name) {
      if (!keys.delete(name)) return;
      for (const l of listeners) l(name, 'accepted');
    },
    onKeyCondition(listener) {
      listeners.add(listener);
    },
    terminal(name) {
      const made = terminals.get(name);
      if (made) return made;
      let far: FarHost;
      try {
        far = get(name);
      } catch {
        return undefined;
      }
      const host = createTmuxHost({
        socketPath: join(far.stateDir, 'tmux', 'tmux.sock'),
        ssh: far.target,
        // Its silence past the bound, the network's or the server's, is "could not tell" for its workers.
        serverName: `the tmux server on ${name}`,
        ...(deps.answerBoundMs !== undefined && { answerBoundMs: deps.answerBoundMs }),
        ...(deps.onNotice && { onNotice: (message: string, fields: Record<string, unknown>) => deps.onNotice!(message, { host: name, ...fields }) }),
      });
      // What types into a pane is refused while the host's key is in question.
      const { sendText, sendKey, typeText } = host;
      host.sendText = async (paneId, text, o) => {
        refuseWhileKeyChanged(name, paneId);
        return sendText.call(host, paneId, text, o);
      };
      host.sendKey = async (paneId, key) => {
        refuseWhileKeyChanged(name, paneId);
        return sendKey.call(host, paneId, key);
      };
      host.typeText = async (paneId, text) => {
        refuseWhileKeyChanged(name, paneId);
        return typeText.call(host, paneId, text);
      };
      terminals.set(name, host);
      return host;
    },
    async dispose() {
      await Promise.all([...terminals.values()].map((t) => t.dispose().catch(() => {})));
      terminals.clear();
    },
  };
}
