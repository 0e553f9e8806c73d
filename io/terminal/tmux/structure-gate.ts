/**
 * Keeps tmux structure changes away from a control client that is connecting.
 *
 * tmux 3.3a crashes (NULL dereference in control_write, control.c:414) when it sends a
 * notification such as `%sessions-changed` or `%client-detached` to a control client that has
 * identified itself as one but has not finished identifying: those notifications only check the
 * CONTROL flag, not the client's state. Creating or killing a session while a control client
 * attaches is enough (docs/2026-11-30-tmux-one-control-client.md). So the host's structural
 * commands (new-session, link-window, kill-pane) run as `shared` work — many at once — and the
 * control client's connect runs `exclusively`: it waits for shared work in flight and holds new
 * shared work back until it is attached.
 */
export class StructureGate {
  private active = 0;
  private drained: (() => void) | null = null;
  private exclusive: Promise<void> | null = null;

  /** Runs `fn` alongside other shared work, never while an exclusive section runs. */
  async shared<T>(fn: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      if (this.active === 0 && this.drained) {
        const done = this.drained;
        this.drained = null;
        done();
      }
    }
  }

  /** Runs `fn` alone: after the shared work in flight, with new shared work held back. */
  async exclusively<T>(fn: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    let release!: () => void;
    this.exclusive = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return await fn();
    } finally {
      this.exclusive = null;
      release();
    }
  }
}
