/**
 * An async job that runs one at a time: asked while it runs, it runs once more when it ends
 * (however many times it was asked), so the last ask is always served by a run that began after
 * it. `body` returns false to stop early (nothing more to do, whoever asked).
 */
export function oneRunAtATime(body: () => Promise<boolean | void>): () => Promise<void> {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        if ((await body()) === false) return;
      } while (again);
    } finally {
      running = false;
    }
  };
}
