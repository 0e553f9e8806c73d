/**
 * A worker's pane feeding its actor (fleet-host.ts wires it): a new pane gets a feed whose
 * readings pass the hooks' witness on their way to the worker, exits and missing panes become
 * the worker's events, the terminal server's identity is noted, and a disagreement between the
 * screen and the hooks that lasts wakes the listeners at its due time.
 */
import type { WorkerEvent } from '../machines/worker.types.ts';
import type { Screen, ScreenReading } from '../io/screen/types.ts';
import type { TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent } from '../persistence/types.ts';
import type { Clock } from './ports.ts';
import { PaneFeed } from './pane-feed.ts';
import type { HostAnswers } from './host-answers.ts';
import type { WorkerRecord } from './worker-record.ts';
import { disputeDueAt, onScreen, turnEndWitnessed } from './witness.ts';

export interface WorkerFeedsDeps {
  records: Map<string, WorkerRecord>;
  recordOf(id: string): WorkerRecord;
  route(id: string, event: WorkerEvent): void;
  hostOf(id: string): TerminalHost;
  terminalFor(intent: WorkerIntent): TerminalHost | undefined;
  /** The screen profile a worker is read with (`claude@2.1.332`). */
  readerOf(intent: WorkerIntent): string;
  analyse(screen: Screen, agent: string): ScreenReading;
  answers: Pick<HostAnswers, 'follow'>;
  /** Wakes the listeners with the worker's view as it is now. */
  publish(id: string): void;
  /** The fleet still runs (its store open). */
  running(): boolean;
  store: Pick<FleetStore, 'setPaneServer'>;
  clock: Clock;
  log?: (obj: Record<string, unknown>) => void;
  skipRepaints?: boolean;
}

export interface WorkerFeeds {
  attachFeed(id: string, paneId: string): void;
  deliverReading(id: string, reading: ScreenReading): void;
  /** After a hook's word: a disagreement with the screen that lasts wakes the listeners when it is due. */
  armDispute(id: string): void;
  notePaneServer(id: string): Promise<void>;
}

export function createWorkerFeeds(d: WorkerFeedsDeps): WorkerFeeds {
  const { records, clock } = d;

  /** A reading reaches the worker through its hooks' witness (actors/witness.ts). */
  function deliverReading(id: string, reading: ScreenReading): void {
    const record = records.get(id);
    if (!record) return;
    const seen = onScreen(record.witness, reading, clock.now());
    d.route(id, { type: 'SCREEN', reading: seen, at: clock.now(), ...(turnEndWitnessed(record.witness) ? { turnEnded: true } : {}) });
    armDispute(id);
  }

  /** A disagreement that lasts becomes a dispute at a time no event marks: wake the listeners then. */
  function armDispute(id: string): void {
    const record = records.get(id);
    if (!record) return;
    const due = disputeDueAt(record.witness);
    if (due === null || record.disputeTimer !== null) return;
    record.disputeTimer = clock.setTimeout(() => {
      record.disputeTimer = null;
      d.publish(id);
      if (disputeDueAt(record.witness) !== due) armDispute(id);
    }, Math.max(0, due - clock.now()) + 1);
  }

  function attachFeed(id: string, paneId: string): void {
    const record = d.recordOf(id);
    record.feed?.stop();
    const terminal = d.hostOf(id);
    record.feed = new PaneFeed({
      host: terminal,
      paneId,
      agent: d.readerOf(record.intent),
      analyse: d.analyse,
      log: d.log,
      clock,
      skipRepaints: d.skipRepaints !== false,
      onReading: (reading) => deliverReading(id, reading),
      onMissing: (serverUp) => d.route(id, { type: 'PANE_MISSING', serverUp, at: clock.now() }),
      onExit: (code) => {
        record.live = false;
        d.route(id, { type: 'EXITED', code, at: clock.now() });
      },
    });
    record.live = true;
    record.feed.start();
    d.answers.follow(terminal);
  }

  /**
   * Notes which server instance the worker's new pane is on (pid.start time), so a restart
   * re-attaches only to that server's pane: a restarted server reuses pane ids (restore.ts).
   */
  async function notePaneServer(id: string): Promise<void> {
    const record = records.get(id);
    const identity = record ? await d.terminalFor(record.intent)?.serverIdentity?.().catch(() => null) : null;
    // The fleet may have shut down (and its store closed) while tmux answered: nothing to note then.
    if (!record || !identity || records.get(id) !== record || !d.running()) return;
    record.intent.paneServer = identity;
    d.store.setPaneServer?.(id, identity);
  }

  return { attachFeed, deliverReading, armDispute, notePaneServer };
}
