/**
 * Control commands written together: every command due in one turn of the event loop goes to the
 * control client in ONE write (issue 26: probes of many streaming panes, and a resume's hooks for
 * hundreds, each a write of its own, were a large share of the daemon's time).
 */
import { ControlClosedError, type TmuxControlClient } from './control-client.ts';

export class CommandBatcher {
  private due: Array<{ line: string; resolve(lines: string[]): void; reject(err: unknown): void }> = [];

  /** `client`: the live control client, or null when none is up. */
  constructor(private readonly client: () => Pick<TmuxControlClient, 'commands'> | null) {}

  /** One control command, written with the others due in this turn. Rejects with ControlClosedError when no client is up. */
  command(line: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      if (this.due.push({ line, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const due = this.due.splice(0);
    const client = this.client();
    if (!client) {
      for (const d of due) d.reject(new ControlClosedError('no tmux control client is up'));
      return;
    }
    const replies = client.commands(due.map((d) => d.line));
    due.forEach((d, i) => replies[i]!.then(d.resolve, d.reject));
  }
}
