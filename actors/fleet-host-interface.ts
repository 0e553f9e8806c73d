/**
 * The FleetHost API: all the daemon calls on the running system (actors/fleet-host.ts makes it).
 * Its own file so that the host's parts (worker-commands.ts, hooks-and-host-connections.ts) type
 * their share of it without importing the file that assembles them.
 */
import type { Key } from '../io/terminal/types.ts';
import type { WorkerIntent } from '../persistence/types.ts';
import type { StoreHealth } from '../persistence/commit-queue.ts';
import type { HookNote } from '../contract/hook-note.ts';
import type { GateCommands } from './gate-commands.ts';
import type { AnswerResume } from './decision-resume.ts';
import type { WorkerView } from './worker-view.ts';

export interface FleetHost extends GateCommands {
  /** Restores the stored fleet; `took` says where the time went (store read, actors started, panes re-attached). */
  start(): Promise<{ restored: string[]; skipped: { id: string; reason: string }[]; took: { loadMs: number; actorsMs: number; reattachMs: number } }>;
  /** briefGate: the worker waits at the dispatch gate before anything is created (non-yolo projects). */
  dispatch(req: { intent: WorkerIntent; stallMs: number; unclassifiedMs?: number; firstPrompt: string; briefGate?: boolean }): Promise<WorkerView>;
  view(id: string): WorkerView | null;
  views(): WorkerView[];
  subscribe(listener: (view: WorkerView) => void): () => void;
  /** `decision`: the text is that decision's answer; its Enter is marked first (io/brief/submission-mark.ts). */
  send(id: string, text: string, opts?: { allowNonEmptyBox?: boolean; decision?: string }): Promise<WorkerView>;
  /**
   * Before a decision's answer is typed (again): what an earlier daemon left of it in the pane,
   * finished or cleared (actors/decision-resume.ts). Call it in the worker's input lane.
   */
  resumeAnswer(id: string, answer: string, key: string): Promise<AnswerResume>;
  /** A parked worker's answer went in before a restart (resumeAnswer found it entered or sent): it is at work on it. */
  answerWentIn(id: string): void;
  key(id: string, key: Key, opts?: { allowNonEmptyBox?: boolean }): Promise<WorkerView>;
  /**
   * Runs `fn` in the worker's input lane (actors/input-lane.ts): whatever types into a worker —
   * a send, a key, a whole answer, a decision's delivery, a stop — goes through it, one caller at
   * a time, in order.
   */
  inLane<T>(id: string, fn: () => Promise<T>): Promise<T>;
  stop(id: string, opts?: { timeoutMs?: number }): Promise<{ view: WorkerView; exitCode: number | null; paneReusable: boolean }>;
  readScreen(id: string, opts?: { scrollback?: number }): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
  /**
   * The worker's view after a reading of its pane taken now (at most `boundMs` awaited): what a
   * caller is told at once must not be a reading the screen has since left behind (under load a
   * feed's read of a small burst waits its turn; `hand wait` said blocked on a menu already gone).
   */
  freshView(id: string, boundMs?: number): Promise<WorkerView | null>;
  /** Closes a finished worker's pane (if any) and frees its id; the journal stays (hand discard). */
  release(id: string): Promise<{ paneClosed: boolean }>;
  shutdown(): Promise<void>;
  /** A worker's Claude Code hook spoke (hand hook → the daemon, or the queue at start). */
  hook(note: HookNote): Promise<WorkerView>;
  /** Null while the state database takes writes; else why not (locked, full), since when, how many transitions wait. */
  storeHealth(): StoreHealth | null;
  /** Tests: resolves once every pane read requested so far has reached its worker. */
  quiesce(): Promise<void>;
  /**
   * A far host's connection refused us for a reason of the host's own (its key changed, issue 43):
   * 'lost' makes every worker on it with a pane could-not-tell now, not only those whose next read
   * fails; 'back' has each of them read its screen again at once.
   */
  hostConnection(host: string, state: 'lost' | 'back'): void;
}
