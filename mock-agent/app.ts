/**
 * The mock agent: state, key routing and lifecycle. Every change redraws the whole frame
 * (renderer.ts); turns are played by turn-runner.ts, keys are interpreted by box-keys.ts,
 * menu-keys.ts and open-dialog.ts.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { boxKey, slashMenuOf } from './box-keys.ts';
import { emptyBox, expandedText, insertText, type BoxState } from './box-state.ts';
import { EventLog } from './event-log.ts';
import { KeyParser, type Key } from './input-parser.ts';
import { MODE_CYCLE, type PermissionMode } from './layout-chrome.ts';
import { composeFrameRows, trustFrame, withSpinner, type FrameView } from './layout-frame.ts';
import type { Entry } from './layout-transcript.ts';
import { trustKey } from './menu-keys.ts';
import { openDialog, type OpenDialog } from './open-dialog.ts';
import type { ResolvedConfig } from './options.ts';
import { ClassicRenderer, FullscreenRenderer, type Renderer, type TerminalSize } from './renderer.ts';
import { RealStream, type StreamTarget } from './real-stream.ts';
import { ScenarioPlayer } from './scenario.ts';
import { builtInSteps } from './steps.ts';
import { withBrief } from './brief-reader.ts';
import { encodeLine, seg, type Line } from './style.ts';
import { isFolderTrusted } from './trust.ts';
import { TurnRunner, type TurnEnd } from './turn-runner.ts';
import { IDLE_TITLE, TITLE_FRAMES } from './words.ts';

export interface TerminalPort {
  input: NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown };
  output: { write(data: string): unknown };
  errorOutput: { write(data: string): unknown };
  size(): TerminalSize;
  onResize(listener: () => void): () => void;
}

/** How long a lone ESC waits for the rest of an escape sequence before it counts as Escape. */
const ESC_WAIT_MS = 30;
/** A second ctrl+c within this window exits. */
const CTRL_C_WINDOW_MS = 2000;

export class MockAgentApp {
  private phase: 'trust' | 'main' | 'done' = 'main';
  private trustCaret = 0;
  private entries: Entry[] = [];
  private box: BoxState = emptyBox();
  private killed: BoxState | null = null;
  private hint: string | null = null;
  private dialog: OpenDialog | null = null;
  private mode: PermissionMode;
  private finishedTurns = 0;
  private pasteCount = 0;
  private ctrlCTimer: NodeJS.Timeout | null = null;
  private escTimer: NodeJS.Timeout | null = null;
  private readonly parser = new KeyParser();
  private readonly events: EventLog;
  private readonly renderer: Renderer;
  private readonly stream: RealStream | null;
  private readonly scenario: ScenarioPlayer;
  private readonly turns: TurnRunner;
  private readonly sessionId = randomUUID();
  private detach: Array<() => void> = [];
  private finish: (code: number) => void = () => {};

  constructor(
    private readonly cfg: ResolvedConfig,
    private readonly term: TerminalPort,
  ) {
    this.mode = cfg.mode;
    this.events = new EventLog(cfg.eventLogPath);
    this.renderer = cfg.classic ? new ClassicRenderer(term.output, term.size) : new FullscreenRenderer(term.output, term.size);
    this.stream = cfg.stream === 'real' ? new RealStream(this.streamTarget(), () => term.size().cols) : null;
    this.scenario = new ScenarioPlayer(cfg.scenario);
    this.turns = new TurnRunner(cfg, this.events, {
      entries: () => this.entries,
      redraw: () => this.render(),
      drawNow: () => {
        if (this.renderPending) this.renderNow();
      },
      permissionNeeded: () => this.mode !== 'auto',
      openDialog: (d) => {
        this.dialog = openDialog(d);
      },
      closeDialog: () => {
        this.dialog = null;
      },
      setMode: (m) => {
        this.mode = m;
      },
      ended: (end) => this.turnEnded(end),
    });
  }

  /** Runs until the agent exits; resolves with the exit status. */
  run(): Promise<number> {
    return new Promise((resolve) => {
      this.finish = resolve;
      const begin = () => {
        this.attachInput();
        this.detach.push(this.term.onResize(() => this.render()));
        this.renderer.start();
        if (!this.cfg.skipTrust && !isFolderTrusted(this.cfg.configDir, this.cfg.cwd)) {
          this.phase = 'trust';
          this.events.note('trust-drawn');
          this.render();
        } else {
          this.enterMain();
        }
      };
      // A slow start (Claude Code takes seconds on a loaded machine): nothing drawn, nothing read.
      // A start file holds the start until a test says so (a timer alone races a slow machine).
      const afterFile = this.cfg.startFile ? () => whenFileExists(this.cfg.startFile!, begin) : begin;
      if (this.cfg.timings.startMs > 0) setTimeout(afterFile, this.cfg.timings.startMs);
      else afterFile();
    });
  }

  /** Ends the program from outside (SIGTERM, SIGHUP): restore the terminal, no resume hint. */
  terminate(code: number): void {
    this.exit(code, 'quiet');
  }

  private enterMain(): void {
    this.phase = 'main';
    this.events.note('ready');
    this.render();
    if (this.cfg.initialPrompt) this.submit(insertText(emptyBox(), this.cfg.initialPrompt));
  }

  private attachInput(): void {
    const input = this.term.input;
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    const onData = (chunk: string | Buffer) => this.onData(String(chunk));
    input.on('data', onData);
    input.resume();
    this.detach.push(() => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
    });
  }

  private onData(chunk: string): void {
    if (this.escTimer) clearTimeout(this.escTimer);
    this.escTimer = null;
    for (const key of this.parser.feed(chunk)) this.onKey(key);
    if (this.parser.pending) {
      this.escTimer = setTimeout(() => {
        this.escTimer = null;
        for (const key of this.parser.flush()) this.onKey(key);
      }, ESC_WAIT_MS);
    }
  }

  private onKey(key: Key): void {
    if (this.phase === 'done') return;
    if (key.type === 'ctrl' && key.key === 'c') return this.ctrlC();
    if (this.turns.frozen) {
      // MODE:silent: the screen never changes again; only an interrupt brings the agent back.
      if (key.type === 'escape') this.turns.interrupt();
      return;
    }
    if (this.phase === 'trust') return this.trustKey(key);
    if (this.dialog) {
      this.dialog.key(key);
      return this.render();
    }
    this.boxKey(key);
  }

  private trustKey(key: Key): void {
    const r = trustKey(this.trustCaret, key);
    if ('state' in r) {
      this.trustCaret = r.state;
      this.render();
    } else if (r.choice === 'exit') {
      this.exit(1, 'quiet');
    } else {
      this.enterMain();
    }
  }

  private boxKey(key: Key): void {
    const action = boxKey({ box: this.box, killed: this.killed, working: this.turns.active !== null, pasteCount: this.pasteCount }, key);
    switch (action.kind) {
      case 'none':
        return;
      case 'update':
        this.box = action.box;
        if (action.killed !== undefined) this.killed = action.killed;
        if (action.hint !== undefined) this.hint = action.hint;
        if (action.pasteCount !== undefined) this.pasteCount = action.pasteCount;
        break;
      case 'submit':
        return this.submit(action.box);
      case 'slash':
        return this.runSlash(action.name);
      case 'interrupt':
        return this.turns.interrupt();
      case 'cycle-mode':
        this.mode = MODE_CYCLE[(MODE_CYCLE.indexOf(this.mode) + 1) % MODE_CYCLE.length] as PermissionMode;
        break;
    }
    this.render();
  }

  private runSlash(name: string): void {
    if (name === '/exit') return this.exit(0, 'resume');
    this.box = emptyBox();
    if (name === '/clear') {
      this.entries = [];
    } else {
      const note = name === '/help' ? 'Shortcuts: ! for bash mode, / for commands, esc to interrupt' : 'Context: 3% used';
      this.entries.push({ kind: 'prompt', text: name }, { kind: 'note', text: note });
    }
    this.render();
  }

  private submit(box: BoxState): void {
    const prompt = expandedText(box);
    this.box = emptyBox();
    this.hint = null;
    this.killed = null;
    const acted = withBrief(prompt);
    const steps = this.scenario.next(acted) ?? builtInSteps(acted, this.cfg.timings);
    this.turns.start(prompt, box, steps);
    this.stream?.start();
  }

  private turnEnded(end: TurnEnd): void {
    this.stream?.stop();
    if (end.kind === 'exit') return this.exit(end.code, 'crash');
    if (end.kind === 'finished') {
      this.finishedTurns++;
      // The real program offers suggestions from the second assistant turn on (§6.8).
      if (this.cfg.suggestion && this.finishedTurns >= 2 && this.box.text === '') this.box = emptyBox(this.cfg.suggestion);
    }
    if (end.kind === 'interrupted' && end.restore && this.box.text === '') this.box = end.restore;
    this.render();
  }

  private ctrlC(): void {
    if (this.ctrlCTimer) return this.exit(0, 'resume');
    if (!this.turns.frozen) {
      if (this.turns.active) this.turns.interrupt();
      else this.box = emptyBox();
    }
    this.ctrlCTimer = setTimeout(() => {
      this.ctrlCTimer = null;
      this.render();
    }, CTRL_C_WINDOW_MS);
    this.render();
  }

  /** A render asked for and not yet drawn. */
  private renderPending: NodeJS.Immediate | null = null;

  /**
   * Draws once the current event and the promise reactions it set off are done: one key or one
   * answer often changes several things (a dialog closes, its line is replaced, `Interrupted` is
   * appended, the turn ends), and the real program (Ink) draws the result, never each step; a
   * frame drawn per step showed a spinner beside `Interrupted` for a moment, which a capture could
   * catch.
   */
  private render(): void {
    if (this.renderPending || this.phase === 'done') return;
    this.renderPending = setImmediate(() => this.renderNow());
  }

  private renderNow(): void {
    if (this.renderPending) clearImmediate(this.renderPending);
    this.renderPending = null;
    if (this.phase === 'done' || this.turns.frozen) return;
    const { frame, title } = this.composeNow();
    // The event line is written before the frame it announces, so a reader never sees it late.
    this.events.flush();
    this.renderer.draw(frame, title);
  }

  /** The frame and title as they stand now. */
  private composeNow(): { frame: Line[]; title: string } {
    const size = this.term.size();
    const turn = this.turns.active;
    const slash = slashMenuOf(this.box);
    const frame =
      this.phase === 'trust'
        ? trustFrame(this.cfg.cwd, this.trustCaret, size.cols, size.rows, this.cfg.classic)
        : this.compose({
            ...size,
            classic: this.cfg.classic,
            cwdLabel: this.cfg.cwdLabel,
            entries: this.entries,
            box: { text: this.box.text, suggestion: this.box.suggestion, working: turn !== null, slash: slash !== null },
            footer: { mode: this.mode, working: turn !== null, boxHasText: this.box.text !== '', ctrlCArmed: this.ctrlCTimer !== null },
            spinner: turn && !this.dialog ? { ...turn, seconds: turn.ticks >= 1 ? turn.ticks : null } : null,
            dialog: this.dialog ? this.dialog.view(this.cfg.cwd) : null,
            slash,
            showEffort: this.finishedTurns === 0,
            hint: this.hint,
          });
    const title = turn ? `${TITLE_FRAMES[turn.ticks % TITLE_FRAMES.length]} Claude Code` : IDLE_TITLE;
    return { frame, title };
  }

  /** KH_MOCK_STREAM=real: the frame written again at Claude Code's byte rate while a turn works (real-stream.ts). */
  private streamTarget(): StreamTarget {
    // Only what stands on the screen is written again: a pending frame is drawn first, a frozen one never.
    const ready = () => {
      if (this.renderPending) this.renderNow();
      return this.phase === 'main' && !this.turns.frozen && this.turns.active !== null;
    };
    return {
      rewrite: () => (ready() ? this.renderer.rewrite(this.composeNow().frame) : 0),
      redraw: (transcript) => (ready() ? this.renderer.redraw(this.composeNow().frame, transcript) : 0),
    };
  }

  /** The last frame composed, what it showed but the spinner's tick, and the spinner's row. */
  private composed: { frame: Line[]; same: string; last: unknown; spinnerRow: number } | null = null;

  /**
   * Composes the frame; a spinner tick with nothing else changed only replaces the spinner's row
   * (the entries are only pushed, popped and replaced whole, so their count and the last one's
   * identity say whether they changed).
   */
  private compose(v: FrameView): Line[] {
    const s = v.spinner;
    const same = s
      ? JSON.stringify([v.cols, v.rows, v.classic, v.cwdLabel, v.box, v.footer, v.slash, v.showEffort, v.hint, v.dialog === null, s.verb, s.tip, s.seconds === null, v.entries.length])
      : '';
    const last = v.entries[v.entries.length - 1];
    const c = this.composed;
    if (s && c && c.spinnerRow >= 0 && c.same === same && c.last === last) {
      c.frame = withSpinner(c.frame, c.spinnerRow, v);
      return c.frame;
    }
    const { frame, spinnerRow } = composeFrameRows(v);
    this.composed = s ? { frame, same, last, spinnerRow } : null;
    return frame;
  }

  private exit(code: number, how: 'resume' | 'crash' | 'quiet'): void {
    if (this.phase === 'done') return;
    // The frame asked for before the exit is what the screen shows when the program leaves.
    if (this.renderPending) this.renderNow();
    this.events.note('exiting', { code });
    this.events.flush();
    this.phase = 'done';
    this.turns.dispose();
    for (const t of [this.ctrlCTimer, this.escTimer]) if (t) clearTimeout(t);
    const dim = { dim: true };
    const trailer = how === 'resume' ? [encodeLine([seg('Resume this session with:', dim)]), encodeLine([seg(`claude --resume ${this.sessionId}`, dim)])] : [];
    this.renderer.stop(trailer);
    if (how === 'crash') this.term.errorOutput.write(`mock-agent: simulated crash, exiting with status ${code}\n`);
    for (const d of this.detach.splice(0)) d();
    this.finish(code);
  }
}

/** Calls `then` once `path` exists: at once if it does, else when its directory says it appeared. */
function whenFileExists(path: string, then: () => void): void {
  if (existsSync(path)) return then();
  const watcher = watch(dirname(path), (_event, name) => {
    if ((name === null || name === basename(path)) && existsSync(path)) {
      watcher.close();
      then();
    }
  });
  // Created between the first look and the watch: the watch would never hear it.
  if (existsSync(path)) {
    watcher.close();
    then();
  }
}
