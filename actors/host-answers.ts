/**
 * Every worker on a terminal server that stopped answering reads "could not tell", and reads its
 * live screen again once the server answers (issue 38 item 8). The host says when (its
 * `watchAnswers`, io/terminal/server-answers.ts); this turns that into what the workers see:
 *
 *  - silent: each worker on the host is handed an unreadable reading, as a failed read hands it
 *    (the machine's own could-not-tell: a running worker goes blind, which never stalls; a resting
 *    one only notes it), and its view carries the reason — readable no, live could not tell;
 *  - answering again: each worker's screen is read afresh and delivered whatever it says (a read
 *    left hanging on the silent server is delivered too, once answered).
 *
 * Never a state of its own: not a stall, not gone, nothing journaled but the readings.
 */
import type { ServerAnswers, TerminalHost } from '../io/terminal/types.ts';

export interface HostAnswersDeps {
  /** The workers whose panes are on `host` now. */
  workersOn(host: TerminalHost): string[];
  /** The host stopped answering: hand the worker an unreadable reading and publish its view. */
  silent(id: string): void;
  /** The host answers again: read the worker's screen afresh, deliver it, publish its view. */
  answering(id: string): void;
  log?: (obj: Record<string, unknown>) => void;
}

export interface HostAnswers {
  /** Starts following a host (once; a host without `watchAnswers` has nothing to follow). */
  follow(host: TerminalHost): void;
  /** Why the host's workers cannot be read now, or null while it answers. */
  reasonFor(host: TerminalHost | undefined): string | null;
  /**
   * A read from the host, or — as soon as the host is (or becomes) not answering — `silent(reason)`:
   * a caller (`hand read`, the Hand's wake) never hangs on a stopped server past its bound.
   */
  whileAnswering<T>(host: TerminalHost, read: Promise<T>, silent: (reason: string) => T): Promise<T>;
  dispose(): void;
}

export function createHostAnswers(deps: HostAnswersDeps): HostAnswers {
  const followed = new Map<TerminalHost, () => void>();
  const reasons = new Map<TerminalHost, string>();
  /** Reads waiting on each host: told the reason when it stops answering. */
  const waiting = new Map<TerminalHost, Set<(reason: string) => void>>();

  function told(host: TerminalHost, answers: ServerAnswers): void {
    if (answers.answering) {
      if (!reasons.delete(host)) return;
      const ids = deps.workersOn(host);
      deps.log?.({ msg: 'terminal server answers again: its workers are read afresh', backend: host.backend, workers: ids.length });
      for (const id of ids) deps.answering(id);
      return;
    }
    reasons.set(host, answers.reason);
    for (const give of waiting.get(host) ?? []) give(answers.reason);
    const ids = deps.workersOn(host);
    deps.log?.({ msg: 'terminal server does not answer: its workers read could not tell', backend: host.backend, reason: answers.reason, workers: ids.length });
    for (const id of ids) deps.silent(id);
  }

  return {
    follow(host) {
      if (followed.has(host) || !host.watchAnswers) return;
      followed.set(host, host.watchAnswers((answers) => told(host, answers)));
    },
    reasonFor: (host) => (host ? (reasons.get(host) ?? null) : null),
    whileAnswering(host, read, silent) {
      const now = reasons.get(host);
      if (now !== undefined) {
        read.catch(() => undefined); // its answer, when the server wakes, goes nowhere
        return Promise.resolve(silent(now));
      }
      return new Promise((resolve, reject) => {
        const set = waiting.get(host) ?? new Set<(reason: string) => void>();
        waiting.set(host, set);
        const done = () => set.delete(give);
        const give = (reason: string) => (done(), resolve(silent(reason)));
        set.add(give);
        read.then((v) => (done(), resolve(v)), (err: unknown) => (done(), reject(err)));
      });
    },
    dispose() {
      for (const stop of followed.values()) stop();
      followed.clear();
      reasons.clear();
    },
  };
}
