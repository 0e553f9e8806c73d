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
  dispose(): void;
}

export function createHostAnswers(deps: HostAnswersDeps): HostAnswers {
  const followed = new Map<TerminalHost, () => void>();
  const reasons = new Map<TerminalHost, string>();

  function told(host: TerminalHost, answers: ServerAnswers): void {
    if (answers.answering) {
      if (!reasons.delete(host)) return;
      const ids = deps.workersOn(host);
      deps.log?.({ msg: 'terminal server answers again: its workers are read afresh', backend: host.backend, workers: ids.length });
      for (const id of ids) deps.answering(id);
      return;
    }
    reasons.set(host, answers.reason);
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
    dispose() {
      for (const stop of followed.values()) stop();
      followed.clear();
      reasons.clear();
    },
  };
}
