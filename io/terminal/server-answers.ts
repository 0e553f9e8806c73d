/**
 * Whether a terminal host's server answers (issue 38 item 8). A tmux server SIGSTOPped for 10 s
 * pushed nothing and was asked nothing (nothing had changed), so `hand status` kept the last
 * reading: "working · live yes · readable yes". A server that does not answer within a bound is
 * "could not tell" for every worker on it, and back to the live reading once it answers: the rule
 * of a dropped ssh connection (DESIGN.md: could not tell, never gone), for tmux, herdr and ssh alike.
 *
 * Cheap, per host and never per worker: whatever the server sends (a pane's output, a command's
 * answer) proves it alive, and the host only counts it (`activity`: one increment per chunk it
 * reads, no clock, no call). One timer per host looks at that count four times per bound; only
 * when nothing came for half the bound does it ask the server one cheap question (tmux: a
 * control-mode command; herdr: ping), one at a time. A streaming fleet asks nothing; an idle one
 * asks one question per half bound per host, whatever its number of workers.
 *
 * A question still unanswered when nothing came for the whole bound makes the host "not
 * answering", with the reason; any answer after that (the question's, or anything else the
 * server sends) makes it answering again. Hosts with nothing watched ask nothing.
 */

export type ServerAnswers = { answering: true } | { answering: false; reason: string };

/** The bound when none is configured: five seconds without a word from a server. */
export const ANSWER_BOUND_MS = 5_000;
/** The least bound taken from the environment (a smaller one would only ask the server constantly). */
const MIN_BOUND_MS = 200;

/** `HAND_SERVER_ANSWER_MS` when it is a whole number of milliseconds (at least 200), else the default. */
export function answerBoundOf(env: Record<string, string | undefined>): number {
  const raw = (env.HAND_SERVER_ANSWER_MS ?? '').trim();
  const n = Number(raw);
  return raw !== '' && Number.isInteger(n) && n >= MIN_BOUND_MS ? n : ANSWER_BOUND_MS;
}

/** A question that got no answer in its time: says nothing the reason does not say already. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
}

export interface AnswerWatchOptions {
  boundMs: number;
  /** What the reason names: "the tmux server", "the tmux server on build", "the herdr server". */
  what: string;
  /** A number that changes whenever the server sent anything (compared, never read as a count). */
  activity(): number;
  /**
   * One cheap question. Resolves when the server answered; rejects when it could not be asked or
   * failed (the error's message goes into the reason; a NoAnswer's does not). `timeoutMs` bounds a question that would
   * otherwise wait for ever (a spawned client); one asked over an open connection may simply stay
   * unanswered until the server answers.
   */
  ask(timeoutMs: number): Promise<unknown>;
  /** Whether any pane is watched: with none there is nothing to tell and nothing is asked. */
  watching(): boolean;
  /** The clock (tests); default performance.now. */
  now?: () => number;
}

export interface AnswerWatch {
  /** Told each time the server stops answering within the bound, and each time it answers again. */
  subscribe(listener: (answers: ServerAnswers) => void): () => void;
  current(): ServerAnswers;
  /** How many questions were asked (tests and the bench: an idle fleet's cost). */
  readonly asked: number;
  dispose(): void;
}

export function createAnswerWatch(o: AnswerWatchOptions): AnswerWatch {
  const now = o.now ?? (() => performance.now());
  const tickMs = Math.max(50, Math.round(o.boundMs / 4));
  const listeners = new Set<(a: ServerAnswers) => void>();
  let state: ServerAnswers = { answering: true };
  let timer: NodeJS.Timeout | null = null;
  let seen = o.activity();
  /** When the count last moved (or a question was answered), to the timer's resolution. */
  let heardAt = now();
  let asking = false;
  /** When the last question was asked: a failing one (a server gone, ssh refused) is asked again at most each half bound. */
  let askedAt = -Infinity;
  let lastError: string | null = null;
  let asked = 0;
  let disposed = false;

  const tell = (next: ServerAnswers) => {
    state = next;
    for (const l of [...listeners]) l(next);
  };

  const heard = () => {
    heardAt = now();
    lastError = null;
    if (!state.answering) tell({ answering: true });
  };

  function ask(): void {
    asking = true;
    asked++;
    askedAt = now();
    o.ask(Math.max(100, Math.round(o.boundMs / 2))).then(
      () => {
        asking = false;
        if (!disposed) heard();
      },
      (err: unknown) => {
        asking = false;
        if (!(err instanceof NoAnswer)) lastError = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
      },
    );
  }

  function tick(): void {
    timer = null;
    if (disposed || listeners.size === 0) return;
    arm();
    const count = o.activity();
    if (count !== seen) {
      seen = count;
      return heard();
    }
    if (!o.watching()) {
      // Nothing watched: no worker to tell about, and no question to ask.
      heardAt = now();
      return;
    }
    const quiet = now() - heardAt;
    if (quiet >= o.boundMs / 2 && !asking && now() - askedAt >= o.boundMs / 2) ask();
    if (quiet >= o.boundMs && state.answering) {
      const secs = o.boundMs % 1000 === 0 ? `${o.boundMs / 1000} s` : `${o.boundMs} ms`;
      tell({ answering: false, reason: `${o.what} did not answer within ${secs}${lastError ? ` (${lastError})` : ''}` });
    }
  }

  function arm(): void {
    if (timer || disposed) return;
    timer = setTimeout(tick, tickMs);
    timer.unref?.();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) {
        seen = o.activity();
        heardAt = now();
        arm();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearTimeout(timer);
          timer = null;
        }
      };
    },
    current: () => state,
    get asked() {
      return asked;
    },
    dispose() {
      disposed = true;
      listeners.clear();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
