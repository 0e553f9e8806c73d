/**
 * What a program connects to while a test runs, sampled with `ss` (every socket of the machine's
 * network namespace, TCP and UDP, with its owning process): no test may reach beyond 127.0.0.1,
 * and an agent CLI's own update checks, catalogues and package installs are the usual way out.
 * The watch keeps every peer a process of that name had; a test asserts they are all loopback and
 * that it saw at least one (a watch that saw nothing proves nothing).
 */
import { execFile } from 'node:child_process';

export interface ConnectionWatch {
  /** Stops sampling; the peers seen (`address:port`), each once, and how many samples ran. */
  stop(): Promise<{ peers: string[]; samples: number }>;
}

/** The peers of `program`'s sockets in one `ss -tunpH` output (listening and unconnected ones have none). */
export function peersOf(ssOutput: string, program: string): string[] {
  const out: string[] = [];
  for (const line of ssOutput.split('\n')) {
    if (!line.includes(`(("${program}",`) && !line.includes(`),("${program}",`)) continue;
    const cols = line.trim().split(/\s+/);
    // netid state recv-q send-q local peer users…
    const peer = cols[5];
    if (peer && !/^(?:\*|0\.0\.0\.0|\[::\]):\*$/.test(peer) && !peer.endsWith(':*')) out.push(peer);
  }
  return out;
}

export const isLoopback = (peer: string): boolean => /^(?:127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:127\.\d+\.\d+\.\d+\]):\d+$/.test(peer);

export function watchConnections(program: string, everyMs = 150): ConnectionWatch {
  const peers = new Set<string>();
  let samples = 0;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const sample = () => new Promise<void>((resolve) => {
    execFile('ss', ['-tunpH'], { encoding: 'utf8', timeout: 5_000 }, (_err, stdout) => {
      samples++;
      for (const p of peersOf(String(stdout ?? ''), program)) peers.add(p);
      resolve();
    });
  });
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(sample);
  }, everyMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      return { peers: [...peers], samples };
    },
  };
}
