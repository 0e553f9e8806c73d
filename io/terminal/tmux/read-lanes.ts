/**
 * Screen reads in flight on the one control client, bounded, the ones that may show a question
 * first (issue 46). tmux answers a control client's commands in order and only after every
 * `%output` block queued before them, and every read's reply (a whole screen, ~2 KB) queues in
 * front of the next pane's output. At 200 streaming workers on a 2-core machine the feeds asked
 * ~900 reads a second (1.6 MB/s of replies), and a question drawn by one worker reached the
 * daemon 0.2-3 s late, queued behind other panes' repaints (docs/2026-12-06-a-question-is-read-
 * before-repaints.md). So at most READS_IN_FLIGHT reads wait in tmux at a time; the rest wait
 * here, where they can be ordered: a read someone waits on before a background one (a feed
 * re-reading a pane that only repainted), each class in order of asking. Whether a waiting read
 * is background is asked again whenever a lane frees: a question drawn while its pane's read
 * waited promotes that read.
 */
export const READS_IN_FLIGHT = 4;

interface Waiting {
  background(): boolean;
  start(): void;
}

export class ReadLanes {
  private inFlight = 0;
  private readonly queue: Waiting[] = [];

  constructor(private readonly limit = READS_IN_FLIGHT) {}

  /** Runs `read` once a lane is free; a read `background` says may wait goes after every other waiting one. */
  async run<T>(background: () => boolean, read: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.limit) await new Promise<void>((start) => this.queue.push({ background, start }));
    else this.inFlight++;
    try {
      return await read();
    } finally {
      this.release();
    }
  }

  /** How many reads wait for a lane. */
  get waiting(): number {
    return this.queue.length;
  }

  private release(): void {
    if (this.queue.length === 0) {
      this.inFlight--;
      return;
    }
    // The lane passes straight to the next read (inFlight unchanged): the first foreground one, else the first.
    let at = this.queue.findIndex((w) => !w.background());
    if (at < 0) at = 0;
    this.queue.splice(at, 1)[0]!.start();
  }
}
