/**
 * The lifecycle of one running turn: the echoed prompt, the spinner ticker (one tick = one mock
 * second, KH_MOCK_TICK_MS), the TurnHost the engine plays against, and what is left on screen
 * when the turn ends.
 */
import { createHash } from 'node:crypto';
import { runStopHooks } from './stop-hooks.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import type { BoxState } from './box-state.ts';
import type { EventLog } from './event-log.ts';
import type { PermissionMode } from './layout-chrome.ts';
import type { Entry } from './layout-transcript.ts';
import type { ResolvedConfig } from './options.ts';
import type { Step } from './steps.ts';
import { runTurn, type PermissionAnswer, type TurnHost, type TurnOutcome } from './turn-engine.ts';
import { clockTime, finishedVerb, SPINNER_GLYPHS, spinnerVerb, tip } from './words.ts';

export type AskStep = Extract<Step, { kind: 'ask' }>;

export type DialogRequest =
  | { kind: 'permission'; command: string; description: string; resolve: (a: PermissionAnswer) => void }
  | { kind: 'question'; step: AskStep; resolve: (label: string | null) => void };

export type TurnEnd = { kind: 'finished' } | { kind: 'error' } | { kind: 'interrupted'; restore: BoxState | null } | { kind: 'exit'; code: number };

export interface TurnHooks {
  /** The live transcript (the app may replace the array, e.g. on /clear). */
  entries(): Entry[];
  /** Asks for a frame (drawn once the current event is done). */
  redraw(): void;
  /** Draws the frame asked for, if any, now. */
  drawNow(): void;
  /** False in auto mode: Bash runs without a dialog. */
  permissionNeeded(): boolean;
  openDialog(d: DialogRequest): void;
  closeDialog(): void;
  setMode(mode: PermissionMode): void;
  ended(end: TurnEnd): void;
}

export interface TurnView {
  ticks: number;
  tokens: number;
  glyph: string;
  verb: string;
  tip: string;
  /** What the turn does past its reply, shown first in the spinner's status (`running Stop hook`). */
  status?: string;
}

interface ActiveTurn extends TurnView {
  startedAt: number;
  box: BoxState;
  prompt: Entry;
  tokenRate: number;
  abort: AbortController;
  timer: NodeJS.Timeout;
}

function abortError(): Error {
  const err = new Error('interrupted');
  err.name = 'AbortError';
  return err;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal.aborted) return fail(abortError());
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      if (timer) clearTimeout(timer);
      fail(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    // An infinite sleep (a stall) sets no timer at all: only an interrupt ends it.
    if (Number.isFinite(ms)) {
      timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        done();
      }, ms);
    }
  });
}

export class TurnRunner {
  private turn: ActiveTurn | null = null;
  private allowBash = false;
  private disposed = false;
  /** MODE:silent: nothing is drawn any more until an interrupt. */
  frozen = false;

  constructor(
    private readonly cfg: ResolvedConfig,
    private readonly events: EventLog,
    private readonly hooks: TurnHooks,
  ) {}

  get active(): TurnView | null {
    return this.turn;
  }

  start(promptText: string, box: BoxState, steps: readonly Step[]): void {
    const prompt: Entry = { kind: 'prompt', text: box.text };
    this.hooks.entries().push(prompt);
    const turn: ActiveTurn = {
      startedAt: performance.now(),
      box,
      prompt,
      ticks: 0,
      tokens: 0,
      tokenRate: 2,
      glyph: SPINNER_GLYPHS[0] as string,
      verb: spinnerVerb(),
      tip: tip(),
      abort: new AbortController(),
      timer: setInterval(() => this.tick(turn), this.cfg.timings.tickMs),
    };
    this.turn = turn;
    // Length and digest let a test prove a long paste arrived whole.
    const promptSha256 = createHash('sha256').update(promptText).digest('hex');
    this.events.note('turn-started', { promptLength: promptText.length, promptSha256 });
    this.hooks.redraw();
    runTurn(steps, this.host(turn)).then(
      (outcome) => this.end(turn, outcome),
      (err: unknown) => {
        this.hooks.entries().push({ kind: 'reply', text: `Error: ${(err as Error).message}`, tone: 'error' });
        this.end(turn, { kind: 'error' });
      },
    );
  }

  interrupt(): void {
    this.turn?.abort.abort();
  }

  dispose(): void {
    this.disposed = true;
    if (this.turn) {
      clearInterval(this.turn.timer);
      this.turn.abort.abort();
    }
  }

  private tick(turn: ActiveTurn): void {
    turn.ticks++;
    turn.tokens += turn.tokenRate;
    turn.glyph = SPINNER_GLYPHS[turn.ticks % SPINNER_GLYPHS.length] as string;
    this.hooks.redraw();
  }

  private end(turn: ActiveTurn, outcome: TurnOutcome): void {
    // Claude Code runs its Stop hooks with the spinner still up, and draws the finished turn after.
    if (outcome.kind === 'done' && this.cfg.stopHooks && turn.status === undefined && !this.disposed) {
      turn.status = 'running Stop hook';
      this.events.note('stop-hook-started');
      this.hooks.redraw();
      void runStopHooks(this.cfg.cwd, { session_id: `mock-${process.pid}` }).then(() => this.end(turn, outcome));
      return;
    }
    clearInterval(turn.timer);
    if (this.disposed) return;
    this.turn = null;
    this.frozen = false;
    this.hooks.closeDialog();
    const entries = this.hooks.entries();
    switch (outcome.kind) {
      case 'done': {
        // Rounded from the clock, not counted ticks: a timer firing late must not lose a second.
        const seconds = Math.round((performance.now() - turn.startedAt) / this.cfg.timings.tickMs);
        entries.push({ kind: 'finished', verb: finishedVerb(), seconds, at: clockTime(new Date()) });
        this.events.note('turn-finished', { seconds });
        return this.hooks.ended({ kind: 'finished' });
      }
      case 'error':
        this.events.note('turn-finished', { error: true });
        return this.hooks.ended({ kind: 'error' });
      case 'interrupted': {
        this.events.note('turn-interrupted');
        if (outcome.outputShown) return this.hooks.ended({ kind: 'interrupted', restore: null });
        // Nothing was answered yet: the prompt leaves the transcript and goes back into the box.
        const at = entries.lastIndexOf(turn.prompt);
        if (at >= 0) entries.splice(at, 1);
        return this.hooks.ended({ kind: 'interrupted', restore: turn.box });
      }
      case 'exit':
        return this.hooks.ended({ kind: 'exit', code: outcome.code });
    }
  }

  /** Opens a dialog and settles when it is answered, or rejects when the turn is interrupted. */
  private ask<T>(signal: AbortSignal, open: (settle: (v: T) => void) => void): Promise<T> {
    return new Promise((done, fail) => {
      const onAbort = () => {
        this.hooks.closeDialog();
        fail(abortError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      open((v) => {
        signal.removeEventListener('abort', onAbort);
        this.hooks.closeDialog();
        done(v);
      });
    });
  }

  private host(turn: ActiveTurn): TurnHost {
    const { signal } = turn.abort;
    const entries = () => this.hooks.entries();
    const changed = () => {
      if (!this.disposed) this.hooks.redraw();
    };
    return {
      signal,
      append: (e) => {
        entries().push(e);
        changed();
      },
      replaceLast: (e) => {
        const list = entries();
        list[list.length - 1] = e;
        changed();
      },
      removeLast: () => {
        entries().pop();
        changed();
      },
      setTokenRate: (n) => {
        turn.tokenRate = n;
      },
      sleep: (ms) => abortableSleep(ms, signal),
      permissionNeeded: () => this.hooks.permissionNeeded() && !this.allowBash,
      askPermission: (command, description) =>
        this.ask<PermissionAnswer>(signal, (settle) => {
          this.hooks.openDialog({
            kind: 'permission',
            command,
            description,
            resolve: (a) => {
              if (a === 'always') this.allowBash = true;
              if (a === 'auto') this.hooks.setMode('auto');
              settle(a);
            },
          });
          this.events.note('permission-drawn');
          changed();
        }),
      askQuestion: (step) =>
        this.ask<string | null>(signal, (settle) => {
          this.hooks.openDialog({ kind: 'question', step, resolve: settle });
          this.events.note('menu-drawn');
          changed();
        }),
      writeFile: (path, content) => {
        const target = resolve(this.cfg.cwd, path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
        return content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
      },
      runCommand: (command) => {
        // Off by default: the mock only draws commands. Tests that need the effect (a commit to
        // land) opt in, as a real agent would run what the person approved.
        if (process.env.KH_MOCK_RUN_BASH !== '1') return;
        spawnSync('/bin/sh', ['-c', command], { cwd: this.cfg.cwd, stdio: 'ignore', timeout: 60_000 });
      },
      freeze: () => {
        // What was asked for before the freeze is the frame that stays.
        this.hooks.drawNow();
        this.frozen = true;
        clearInterval(turn.timer);
      },
    };
  }
}
