/**
 * What a program connects to while a test runs: no test may reach beyond 127.0.0.1, and an agent
 * CLI's own update checks, catalogues and package installs are the usual way out. The watch keeps
 * every peer a process of that name had; a test asserts they are all loopback and that it saw at
 * least one (a watch that saw nothing proves nothing).
 *
 * Sampled from /proc: the processes named `program`, the socket inodes among their open files,
 * and those inodes' peers in their own network namespace's TCP and UDP tables. `ss -tunp` said
 * the same but scans every process's descriptors of the machine on each call: every 150 ms
 * through a whole OpenCode run it took 8.4 s of CPU, a quarter of the test's, in a suite over
 * its budget.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ConnectionWatch {
  /** Stops sampling; the peers seen (`address:port`), each once, and how many samples ran. */
  stop(): Promise<{ peers: string[]; samples: number }>;
}

export const isLoopback = (peer: string): boolean => /^(?:127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:127\.\d+\.\d+\.\d+\]):\d+$/.test(peer);

/** One address of /proc/net/{tcp,udp}{,6} (hex, each 32-bit word in host order, little-endian here) as `a.b.c.d:port` or `[v6]:port`. */
export function procAddress(hex: string): string {
  const [addr, portHex] = hex.split(':') as [string, string];
  const port = parseInt(portHex, 16);
  const words = addr.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().map((b) => parseInt(b, 16)));
  if (words.length === 1) return `${words[0]!.join('.')}:${port}`;
  const bytes = words.flat();
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `[::ffff:${bytes.slice(12).join('.')}]:${port}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  const v6 = groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:{3,}/, '::');
  return `[${v6}]:${port}`;
}

/** The remote peer of every socket in one /proc/net table, by inode; unconnected sockets (peer port 0) left out. */
export function peersByInode(table: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10) continue;
    const peer = procAddress(cols[2]!);
    if (peer.endsWith(':0')) continue;
    out.set(cols[9]!, peer);
  }
  return out;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * One of /proc/net's tables as a namespace's processes see it: read through the first of `pids`
 * still alive. Any of them will do (they share the namespace), and any of them may have exited
 * since it was listed: a full suite starts and ends node processes all the time, and a table read
 * through a pid just gone came back empty and took every peer of the namespace with it.
 */
export function tableOfNamespace(pids: readonly string[], table: string): string {
  for (const pid of pids) {
    const text = read(`/proc/${pid}/net/${table}`);
    if (text) return text;
  }
  return '';
}

/** The peers of every connected socket held by a process named `program` now. */
export function peersOfProgram(program: string): string[] {
  // Socket inodes of the program's processes, by network namespace: each namespace's tables are
  // read once, however many of the program's processes share it (OpenCode runs several).
  const byNamespace = new Map<string, { pids: string[]; inodes: Set<string> }>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || read(`/proc/${pid}/comm`).trim() !== program) continue;
    let fds: string[] = [];
    let ns = '';
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
      ns = readlinkSync(`/proc/${pid}/ns/net`);
    } catch {
      continue; // gone meanwhile
    }
    const entry = byNamespace.get(ns) ?? { pids: [], inodes: new Set<string>() };
    entry.pids.push(pid);
    byNamespace.set(ns, entry);
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) entry.inodes.add(m[1]!);
      } catch {
        /* closed meanwhile */
      }
    }
  }
  const out: string[] = [];
  for (const { pids, inodes } of byNamespace.values()) {
    if (inodes.size === 0) continue;
    for (const table of ['tcp', 'tcp6', 'udp', 'udp6']) {
      for (const [inode, peer] of peersByInode(tableOfNamespace(pids, table))) if (inodes.has(inode)) out.push(peer);
    }
  }
  return out;
}

export function watchConnections(program: string, everyMs = 150): ConnectionWatch {
  const peers = new Set<string>();
  let samples = 0;
  const sample = () => {
    samples++;
    for (const p of peersOfProgram(program)) peers.add(p);
  };
  const timer = setInterval(sample, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      sample();
      return { peers: [...peers], samples };
    },
  };
}
