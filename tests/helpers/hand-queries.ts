/**
 * The questions an end-to-end test asks `hand` about one worker, with the answers a failure
 * message needs: a wait that did not end as asked carries the worker's screen and status.
 */
import type { HandRun, HandRunner } from './hand-process.ts';

export interface HandQueries {
  /** `hand wait … --json` with a bound; the report's JSON is in `.json`. */
  wait(id: string, until: 'settled' | 'blocked' | 'stalled' | 'exited', timeout: string): Promise<HandRun>;
  /** The worker's row from `hand status --json`. */
  status(id: string): Promise<Record<string, any>>;
  /** The worker's visible screen (`hand read --json` text). */
  read(id: string): Promise<string>;
  /** What hand says about a worker (screen + status), for a failure message that explains itself. */
  explain(id: string): Promise<string>;
}

export function handQueries(hand: HandRunner): HandQueries {
  const q: HandQueries = {
    async wait(id, until, timeout) {
      const r = await hand(['wait', id, '--until', until, '--timeout', timeout, '--json']);
      if (r.code !== 0) r.stderr += `\n${await q.explain(id)}`;
      return r;
    },
    async explain(id) {
      const [screen, status] = await Promise.all([hand(['read', id, '--json']), hand(['status', '--json'])]);
      return `--- hand read ${id}:\n${screen.json?.text ?? screen.stdout + screen.stderr}\n--- hand status --json:\n${status.stdout}${status.stderr}`;
    },
    async status(id) {
      const s = await hand(['status', id, '--json']);
      if (s.code !== 0 || !Array.isArray(s.json)) throw new Error(`hand status ${id} failed (${s.code}): ${s.stdout}${s.stderr}`);
      return s.json[0];
    },
    async read(id) {
      const r = await hand(['read', id, '--json']);
      if (r.code !== 0) throw new Error(`hand read ${id} failed (${r.code}): ${r.stdout}${r.stderr}`);
      return r.json.text as string;
    },
  };
  return q;
}
