/**
 * Runs the mock agent (bin/mock-agent.js) in a real tmux server on a private socket, with a
 * throwaway HOME and work folder, and reads its screen back. Built on tests/harness/claude-tmux.ts,
 * the same launcher the real-binary tests use.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyseScreen, parseAnsi, parsePlain, type ScreenReading } from '../../io/screen/index.ts';
import { launchInTmux, type TmuxPane } from '../harness/claude-tmux.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const MOCK_BIN = join(REPO, 'bin', 'mock-agent.js');
export const FIXTURES = join(REPO, 'tests', 'fixtures', 'claude-code');

export const BOX = '\u276F\u00A0';

export interface MockLaunch {
  args?: string[];
  env?: Record<string, string>;
  /** Write `projects[<cwd>].hasTrustDialogAccepted` for this path (default: none). */
  trustPath?: (cwd: string) => string;
  cols?: number;
  rows?: number;
}

export interface MockRun {
  pane: TmuxPane;
  dir: string;
  home: string;
  cwd: string;
  eventLog: string;
  /** Kills the tmux server and removes every file the run made. */
  cleanup(): Promise<void>;
}

export async function launchMock(opts: MockLaunch = {}): Promise<MockRun> {
  const tmp = makeTempDir('mock');
  const home = join(tmp.path, 'home');
  const cwd = join(tmp.path, 'repo');
  mkdirSync(home);
  mkdirSync(cwd);
  if (opts.trustPath) {
    const config = { projects: { [opts.trustPath(cwd)]: { hasTrustDialogAccepted: true } } };
    writeFileSync(join(home, '.claude.json'), JSON.stringify(config));
  }
  const eventLog = join(tmp.path, 'events.jsonl');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    KH_MOCK_EVENT_LOG: eventLog,
    ...opts.env,
  };
  let pane: TmuxPane;
  try {
    pane = await launchInTmux({ dir: tmp.path, cwd, env, argv: [process.execPath, MOCK_BIN, ...(opts.args ?? [])], cols: opts.cols ?? 120, rows: opts.rows ?? 40 });
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
  return {
    pane,
    dir: tmp.path,
    home,
    cwd,
    eventLog,
    async cleanup() {
      await pane.kill();
      tmp.cleanup();
    },
  };
}

/** Like launchMock, with `scenario` written to a JSON file of the run's and passed as --scenario. */
export async function launchMockWithScenario(scenario: unknown, opts: MockLaunch = {}): Promise<MockRun> {
  const tmp = makeTempDir('mock-scenario');
  const path = join(tmp.path, 'scenario.json');
  writeFileSync(path, JSON.stringify(scenario));
  try {
    const run = await launchMock({ ...opts, args: [...(opts.args ?? []), '--scenario', path] });
    return { ...run, cleanup: () => run.cleanup().finally(tmp.cleanup) };
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}

/** Waits for the live input box (❯ + U+00A0) with `text` in it, or empty when text is ''. */
export function waitForBox(pane: TmuxPane, text = '', what = `the input box holding ${JSON.stringify(text)}`): Promise<string> {
  return pane.waitForScreen((s) => s.split('\n').some((row) => row.trimEnd() === `${BOX}${text}`.trimEnd()), what);
}

/** Types a prompt and submits it. */
export async function submit(pane: TmuxPane, prompt: string): Promise<void> {
  await pane.type(prompt);
  await pane.keys('Enter');
}

/** Rows of the screen that start with the finished-turn glyph (`✻ <Verb> for Ns · done …`). */
export function finishedLines(screen: string): string[] {
  return screen.split('\n').filter((row) => /^\u273B \S+ for \d+s \u00B7 done /.test(row));
}

export type Classification = Pick<ScreenReading, 'state' | 'awaitingInput' | 'blockedReason' | 'promptBox' | 'promptBoxKind'>;

function pick(r: ScreenReading): Classification {
  return { state: r.state, awaitingInput: r.awaitingInput, blockedReason: r.blockedReason, promptBox: r.promptBox, promptBoxKind: r.promptBoxKind };
}

export function classifyAnsi(text: string): Classification {
  return pick(analyseScreen(parseAnsi(text)));
}

export function classifyPlain(text: string): Classification {
  return pick(analyseScreen(parsePlain(text)));
}

export function fixture(relative: string): string {
  return readFileSync(join(FIXTURES, relative), 'utf8');
}

/** The JSON lines of the event log (empty when nothing was written yet). */
export function readEvents(path: string): Array<Record<string, unknown> & { event: string; t: number; pid: number }> {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * The pane's exit status (#{pane_dead_status}) once the program has ended.
 *
 * Works around a tmux 3.3a race seen on this loaded machine: when tmux handles the pane's EOF
 * first, it closes the pane through libutempter, which sets SIGCHLD to SIG_DFL while its helper
 * runs (strace: rt_sigaction(SIGCHLD, SIG_DFL) / clone / wait4 / restore). A SIGCHLD arriving in
 * that window is discarded: the program stays a zombie, `pane_dead` is 1 and the status never
 * comes. A SIGCHLD sent to our private server makes it run its waitpid loop and record the status.
 */
export async function waitExitStatus(pane: TmuxPane, timeoutMs = 20_000): Promise<number> {
  let deadSince = 0;
  return waitFor(
    async () => {
      const s = await pane.status();
      if (s.status !== null) return s.status;
      if (!s.dead) return false;
      if (deadSince === 0) deadSince = Date.now();
      if (Date.now() - deadSince > 500) process.kill(Number(await pane.format('#{pid}')), 'SIGCHLD');
      return false;
    },
    { what: 'the pane to be dead with an exit status', timeoutMs, intervalMs: 50 },
  );
}

/** Fails if the screen changes at all during `ms` (the observation window of a frozen agent). */
export async function expectUnchangedFor(pane: TmuxPane, ms: number): Promise<string> {
  const first = await pane.capture({ ansi: true });
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await pane.capture({ ansi: true });
    if (now !== first) throw new Error(`the screen changed while it had to stay frozen:\n--- before ---\n${first}\n--- after ---\n${now}`);
  }
  return first;
}
