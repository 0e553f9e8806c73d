/**
 * One lane per worker for everything that types into it (issue 43): a send, one key, a whole
 * answer (its fingerprint check and every key), a decision's delivery, a stop. Callers — several
 * MCP servers, the person's CLI, the review page, the daemon's own delivery — are served one at a
 * time in the order they came, and each sees the screen the one before left. Three sends at once
 * reached one worker as the single prompt `charlie1bravo1alpha1`; three identical answers pressed
 * six keys and three Enters, each told it had answered.
 */
export interface InputLanes {
  /** Runs `fn` when every earlier call of `id`'s lane has ended (whatever it ended with). */
  run<T>(id: string, fn: () => Promise<T>): Promise<T>;
}

export function createInputLanes(): InputLanes {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(id: string, fn: () => Promise<T>): Promise<T> {
      const before = tails.get(id) ?? Promise.resolve();
      const mine = before.catch(() => undefined).then(fn);
      tails.set(id, mine);
      const clear = () => {
        if (tails.get(id) === mine) tails.delete(id);
      };
      mine.then(clear, clear);
      return mine;
    },
  };
}
