/**
 * The TerminalHost port: one interface, three implementations (tmux, pty, herdr).
 * Everything above this layer speaks of panes, screens and keys — never of a backend's
 * command line.
 */
import type { Screen } from '../screen/types.ts';
import type { ServerAnswers } from './server-answers.ts';

export type { ServerAnswers } from './server-answers.ts';

export type { BackendName } from '../../contract/vocabulary.ts';
import type { BackendName } from '../../contract/vocabulary.ts';

/** Three-valued: a failed probe is never "stopped". */
export type ServerState =
  | { state: 'running' }
  | { state: 'stopped' }
  | { state: 'unknown'; detail: string };

export interface PaneSpec {
  /** Human-readable name (the worker id); unique per host. */
  name: string;
  cwd: string;
  /** The complete environment of the process (nothing is inherited from the host server). */
  env: Record<string, string>;
  /** argv[0] is the program; never a shell string. */
  argv: string[];
  cols?: number; // default 120
  rows?: number; // default 40
}

export interface PaneInfo {
  /** Backend-specific stable id (tmux "%12", pty "pty-3", herdr pane/agent id). Persisted; used by attach(). */
  paneId: string;
  name: string;
  /** true = process running, false = exited, null = could not tell. */
  alive: boolean | null;
  exitCode: number | null;
  cols: number;
  rows: number;
  pid?: number;
  /** Whether this pane outlives the process hosting it (tmux/herdr true; pty false: it dies with us). */
  survivesRestart?: boolean;
}

/** `pouring`: the pane was still drawing when read (tmux hushes such a pane between reads): its screen is moving. */
export type ReadResult = { ok: true; screen: Screen; pouring?: boolean } | { ok: false; error: string };
export type TextResult = { ok: true; text: string } | { ok: false; error: string };
export type ListResult = { ok: true; panes: PaneInfo[] } | { ok: false; error: string };

/**
 * Events pushed per pane. `changed` says the screen may differ: read it to learn more. Its
 * `repaints`, when the host can tell, are the keys of the frames it folds (tmux/repaint-key.ts):
 * frames that differ only by spinner glyphs and counters share a key. Absent: unknown. Its
 * `bytes`, when the host can tell, is how much the pane wrote in the burst (a question drawn is
 * many rows; a spinner tick is one).
 */
/**
 * A listener that can tell a repaint it already knows (pane-feed.ts) lets a host drop a burst of
 * output made only of such frames before it costs anything more (issue 26: a timer, an event and
 * a wake-up per spinner frame). The host may call `skipped` instead of sending `changed` only when
 * every listener of the pane knows the frame's key; any listener without `repaints` gets every change.
 */
export interface PaneSubscribeOptions {
  repaints?: {
    /** This frame's key (a host's repaint key) is one that reads as what the listener has. */
    known(key: number): boolean;
    /** A frame of a known key went undelivered. */
    skipped(): void;
  };
}

export type PaneEvent =
  | { type: 'changed'; repaints?: readonly number[]; bytes?: number }
  | { type: 'exited'; code: number | null }
  | { type: 'title'; title: string };

export { KEY_NAMES } from '../../contract/keys.ts';
export type { NamedKey, Key } from '../../contract/keys.ts';
import type { Key } from '../../contract/keys.ts';

export interface ReadOptions {
  /** Asked while the read waits: true = nobody waits on it (a pane that likely only repainted), serve it after the others. */
  background?: () => boolean;
  /** Called just before the screen is asked for: what the pane drew until now is in this read. */
  started?: () => void;
}

export interface SendTextOptions {
  beforeEnter?: () => Promise<void>;
}

export interface TerminalHost {
  readonly backend: BackendName;
  /** Whether panes outlive this process (tmux, herdr: yes; pty: no). */
  readonly survivesRestart: boolean;
  ensureServer(): Promise<void>;
  serverState(): Promise<ServerState>;
  /** Create a pane at a fixed size (never a split) and start argv in it. */
  createPane(spec: PaneSpec): Promise<PaneInfo>;
  /** Re-attach to a pane created by an earlier process (after a daemon restart). null = no such pane. */
  attach(paneId: string): Promise<PaneInfo | null>;
  /**
   * Many attaches are coming (a resume): the host may learn about all these panes in one question
   * now, so each attach need not ask again. Optional; a failure only means each attach asks itself.
   */
  prepareAttach?(paneIds: readonly string[]): Promise<void>;
  /**
   * The visible viewport only. A failed read is {ok:false}, never a screen made of error text.
   * A host that bounds its reads (tmux/read-lanes.ts) may make one wait; see ReadOptions.
   */
  readVisible(paneId: string, opts?: ReadOptions): Promise<ReadResult>;
  /** For people only: never classified. */
  readScrollback(paneId: string, lines: number): Promise<TextResult>;
  /**
   * Literal text (bracketed paste where the app asked for it), then Enter as a separate key. No
   * guard here. `beforeEnter` runs between the two (the first prompt records its submission
   * durably there); if it throws, the Enter is not sent and the text stays typed.
   */
  sendText(paneId: string, text: string, opts?: SendTextOptions): Promise<void>;
  /** Literal text without Enter. */
  typeText(paneId: string, text: string): Promise<void>;
  sendKey(paneId: string, key: Key): Promise<void>;
  resize(paneId: string, cols: number, rows: number): Promise<void>;
  /** Close the pane (after the agent exited, or at teardown). */
  close(paneId: string): Promise<void>;
  /** Strict: ok with panes, or an error — never an empty list standing in for a failure. */
  list(): Promise<ListResult>;
  /**
   * Which server instance holds the panes now (tmux: its pid and start time), or null when it
   * cannot tell. A server that restarted numbers its panes from %0 again: a pane id kept from
   * the old one must not be read as the new pane of that id.
   */
  serverIdentity?(): Promise<string | null>;
  /**
   * Whether the host's server answers within its bound (server-answers.ts): the listener is told
   * when it stops answering, with the reason, and when it answers again. Absent where no server
   * can stop answering while its panes live on (pty: the panes are in this process).
   */
  watchAnswers?(listener: (answers: ServerAnswers) => void): () => void;
  /** Subscribe to a pane's events; returns the unsubscribe function. */
  subscribe(paneId: string, listener: (event: PaneEvent) => void, options?: PaneSubscribeOptions): () => void;
  /** Stop watching (control clients, timers). Does not kill panes of a host that survives restarts. */
  dispose(): Promise<void>;
}
