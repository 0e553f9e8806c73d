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

/** SIGKILL a process if it is still alive (only processes the bench itself started). */
export function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
