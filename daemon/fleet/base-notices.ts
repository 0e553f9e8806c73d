/**
 * Moves of a base branch outside a landing, as the Hand's wake hears them (`hand watch
 * --needs-you`): base-settle-watch.ts adds one when it tells the person, and a notice stays open
 * while the recorded tip still says the person was told of that very move — a landing or
 * `hand project set --accept-base` records a new tip and so closes it, with nothing to clear.
 */
import type { BaseTips } from '../../persistence/base-tips.ts';

export interface BaseNotice {
  /** The recorded tip's key (base-watch.ts tipKey): the repository's path, or host and path for a far one. */
  repo: string;
  branch: string;
  to: string;
  worker: string;
  project: string;
  /** The words the journal row and the notification carry. */
  text: string;
  command: string;
  at: number;
}

export interface BaseNotices {
  add(n: BaseNotice): void;
  /** The notices the person has not answered yet (oldest first). */
  open(): BaseNotice[];
  subscribe(fn: (n: BaseNotice) => void): () => void;
}

export function createBaseNotices(tips: BaseTips): BaseNotices {
  const all = new Map<string, BaseNotice>();
  const listeners = new Set<(n: BaseNotice) => void>();
  const stillOpen = (n: BaseNotice) => tips.get(n.repo, n.branch)?.toldTo === n.to;
  return {
    add(n) {
      all.set(`${n.repo}\u0000${n.branch}`, n);
      for (const fn of listeners) fn(n);
    },
    open() {
      return [...all.values()].filter(stillOpen).sort((a, b) => a.at - b.at);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
