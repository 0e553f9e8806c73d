/**
 * Everything a benchmark creates registers its undo here; run.ts calls runCleanups() in a
 * finally block and on SIGINT/SIGTERM, so a failed or interrupted run leaves no tmux server,
 * daemon, process or temp dir behind. Undos run newest first.
 */
const undos: Array<{ what: string; fn: () => unknown }> = [];

export function onCleanup(what: string, fn: () => unknown): () => void {
  const entry = { what, fn };
  undos.push(entry);
  return () => {
    const i = undos.indexOf(entry);
    if (i >= 0) undos.splice(i, 1);
  };
}

export async function runCleanups(log: (msg: string) => void = () => {}): Promise<void> {
  while (undos.length > 0) {
    const { what, fn } = undos.pop()!;
    try {
      await Promise.race([fn(), new Promise((r) => setTimeout(r, 20_000))]);
    } catch (err) {
      log(`cleanup of ${what} failed: ${String(err)}`);
    }
  }
}

/**
 * Runs the cleanups when the script is cut short: a signal, or its output pipe closed under it
 * (`… | head`: the next console write fails with EPIPE and Node would exit on the spot). A
 * profile script piped into a command that failed once left its daemon, tmux server and ten
 * streaming mock agents running for an hour.
 */
export function cleanUpWhenCutShort(log: (msg: string) => void = () => {}, code = 130): void {
  let cutShort = false;
  const cut = (why: string) => {
    if (cutShort) return;
    cutShort = true;
    log(`${why}: cleaning up`);
    void runCleanups(log).finally(() => process.exit(code));
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE'] as const) process.on(sig, () => cut(sig));
  for (const stream of [process.stdout, process.stderr]) stream.on('error', (err) => cut(`output closed (${(err as NodeJS.ErrnoException).code ?? String(err)})`));
}

// SIGKILL-if-alive and liveness by pid (only processes the bench itself started): the same
// helpers the test teardown uses, so both end a process the same way.
export { isProcessAlive as alive, killIfAlive } from '../../tests/helpers/processes.ts';
