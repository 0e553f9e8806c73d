/**
 * A pane that pours is hushed between its reads (issue 46). At Claude Code's real byte rate
 * (~0.3 MB/s a worker) taking in the control client's `%output` alone — reading the pipe and
 * cutting it into lines, nothing else done with them — was 0.26 % of a core per worker, nearly
 * the whole budget; and every byte was one tmux had to escape and write. Yet a pane that pours is
 * read at most every POUR_MS (pane-events.ts): between two reads its bytes only say "still
 * drawing", which the next read learns anyway.
 *
 * So when the bus announces a pane that poured (it was announced a moment ago and kept drawing),
 * its output to our control client is paused (`refresh-client -A %N:pause`, tmux 3.2): tmux keeps
 * reading the pane and its screen stays current for the next read, it only stops sending us the
 * bytes and drops those it had queued. After POUR_MS the output continues (`…:continue`: tmux
 * starts again from what the pane writes next, the paused bytes skipped). If the pane draws
 * again within PAUSE_MS it still pours, and is hushed again at its first byte; while it pours it
 * is read at a resume at most every POURING_READ_MS (a question drawn while a pane keeps drawing
 * is seen within that and one hush). If it stays quiet (a question drawn, then waiting; the
 * turn's end), it is read then, and read as any pane from then on: a pour's end is seen at most
 * POUR_MS + PAUSE_MS after the drawing stopped. A read for the hush is told to the bus as output
 * of unknown content, announced at once. A reading taken while the pane is hushed says so
 * (`pouring`): no quiet time runs from a screen that is still moving, so a worker is never
 * settled between two reads of a pane that kept drawing (a Codex worker was, under load: its
 * quiet window and these reads were both 500 ms).
 *
 * A pane someone shows as it draws (the review page's live screen) is not hushed: the page is told
 * of it every POUR_MS. Only our client is paused: a person attached to the worker's session sees
 * every byte. A pane's death still comes (the `pane_dead` subscription and window notifications
 * are not output). A tmux that refuses the command (older than 3.2, or a far host's) turns
 * hushing off for that connection; the pane is then read as it pours, as before.
 */
import { PAUSE_MS, POUR_MS } from '../pane-events.ts';
import { ControlClosedError } from './control-client.ts';

/** While a pane keeps pouring it is read at its resumes at most this often; once it is found quiet, always. */
export const POURING_READ_MS = 500;

export interface PourHushPort {
  /** One control-mode command over the live control client (rejects when none is up or tmux refuses it). */
  command(line: string): Promise<string[]>;
  /** The pane's output is paused: its silence says nothing (no exit probe asks about it). */
  hushed(paneId: string): void;
  /** The pane drew what we did not see: it is announced now (a read), its key unknown, and its exit probe moves on. */
  unseenOutput(paneId: string): void;
  /** Whether the pane is still watched and not being closed. */
  watching(paneId: string): boolean;
  /** Someone shows the pane as it draws (the review page): it is not hushed, so the page sees every frame it is told of. */
  shownLive(paneId: string): boolean;
  notice(message: string, fields?: Record<string, unknown>): void;
}

/** A tmux pane id: all a command line here is built from (quoted, as tmux's parser reads `%` otherwise). */
const PANE_ID = /^%\d+$/;

/** Paused until its timer; or continued a moment ago (read then or not), waiting to see whether it still pours. */
type Hush = { state: 'paused' | 'resumed'; timer: NodeJS.Timeout };

export class PourHush {
  private readonly panes = new Map<string, Hush>();
  /** When each hushed pane was last read for the hush. */
  private readonly lastRead = new Map<string, number>();
  /** The connection's tmux refused a pause: nothing is hushed until the next connection. */
  private refused = false;
  /** Pauses made: how often a pane was hushed (the bench reads it). */
  paused = 0;

  constructor(private readonly port: PourHushPort) {}

  /**
   * The pane drew (a piece of `%output`). True: the piece is the hush's, not the bus's — it came
   * while the pane was paused (sent before tmux took the pause), or just after a resume, when the
   * pane still pours and is hushed again at once.
   */
  drew(paneId: string): boolean {
    const h = this.panes.get(paneId);
    if (!h) return false;
    if (h.state !== 'resumed') return true;
    clearTimeout(h.timer);
    return this.pause(paneId); // not hushed after all (shown live now, refused): the piece is the bus's
  }

  /** The bus announced the pane (a read follows); `poured`: it had been announced a moment ago and kept drawing. */
  announced(paneId: string, poured: boolean): void {
    if (this.panes.has(paneId) || !poured) return;
    this.lastRead.set(paneId, performance.now());
    this.pause(paneId);
  }

  /** Pauses the pane's output; false (and no longer hushed) when it may not be. */
  private pause(paneId: string): boolean {
    if (this.refused || !PANE_ID.test(paneId) || !this.port.watching(paneId) || this.port.shownLive(paneId)) {
      this.drop(paneId);
      return false;
    }
    this.paused++;
    const timer = setTimeout(() => this.resume(paneId), POUR_MS);
    timer.unref?.();
    this.panes.set(paneId, { state: 'paused', timer });
    this.port.hushed(paneId);
    this.port.command(`refresh-client -A '${paneId}:pause'`).catch((err: unknown) => this.failed(paneId, err));
    return true;
  }

  /** POUR_MS later: the output continues, and the pane is read if it was not for a while; whether it still pours, its next byte says. */
  private resume(paneId: string): void {
    if (this.panes.get(paneId)?.state !== 'paused') return;
    this.port.command(`refresh-client -A '${paneId}:continue'`).catch((err: unknown) => this.failed(paneId, err));
    if (performance.now() - (this.lastRead.get(paneId) ?? -Infinity) >= POURING_READ_MS) {
      this.lastRead.set(paneId, performance.now());
      this.read(paneId);
    }
    const timer = setTimeout(() => this.quiet(paneId), PAUSE_MS);
    timer.unref?.();
    this.panes.set(paneId, { state: 'resumed', timer });
  }

  /**
   * Nothing came for PAUSE_MS after a resume: the pane stopped pouring (a question, the turn's
   * end) and is read as any pane from now on — read now even if it was at the resume, since that
   * reading was of a pane still pouring, from which no quiet time runs.
   */
  private quiet(paneId: string): void {
    if (this.panes.get(paneId)?.state !== 'resumed') return;
    this.drop(paneId);
    this.read(paneId);
  }

  /** Whether the pane is hushed now (paused, or resumed a moment ago and not yet found quiet): it is still drawing. */
  pouring(paneId: string): boolean {
    return this.panes.has(paneId);
  }

  /** The pane is read: told to the bus as output it did not hear. */
  private read(paneId: string): void {
    if (this.port.watching(paneId)) this.port.unseenOutput(paneId);
  }

  /**
   * A pause or a continue that failed: tmux refused it (hushing is off for this connection), or
   * the client went away (a new one starts with every pane's output on). Either way the pane is
   * read now and as it comes from then on.
   */
  private failed(paneId: string, err: unknown): void {
    this.drop(paneId);
    if (!this.refused && !(err instanceof ControlClosedError)) {
      // tmux is silent about a pane it does not know: what it refuses is the command itself.
      this.refused = true;
      this.port.notice('tmux does not pause a pane for its control client: pouring panes are read as they pour', { err: err instanceof Error ? err.message : String(err) });
    }
    this.read(paneId);
  }

  /** The pane is no longer hushed (or watched): its timer goes. */
  drop(paneId: string): void {
    const h = this.panes.get(paneId);
    if (h) clearTimeout(h.timer);
    this.panes.delete(paneId);
    this.lastRead.delete(paneId);
  }

  /**
   * A new control client (or none): every pane's output is on again there. A pane paused on the
   * old client may have drawn unseen; the caller reads every pane after a reconnect anyway.
   */
  reset(): void {
    for (const paneId of [...this.panes.keys()]) this.drop(paneId);
    this.refused = false;
  }
}
