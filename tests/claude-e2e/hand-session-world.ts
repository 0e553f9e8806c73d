/**
 * One Hand session in the REAL Claude Code, for the tests that play the person at its keyboard: a
 * temp root with the person's HOME, a kingshand state directory and a `hand init` workspace; the
 * fake Anthropic API its model talks to (answered by the session's HandScript, or by the fake's
 * queue when the test scripts none); Claude Code started in the workspace in a tmux pane whose
 * every screen is kept for the no-prompt checks; and the undoing of all of it. The four Hand
 * tests (hand-session-real-claude, the-hand-runs-the-seeds-kit, the-hand-runs-the-whole-workflow,
 * the-hand-revises-a-brief-…) each wrote this opening out; each still makes its own repositories,
 * workers and checks.
 *
 * In steps, because each test does its own work between them: `open` (places and the fake, whose
 * URL the environment needs), `init` (the environment, `hand init`, the HOME seeded with the
 * workspace trusted), then the test's annexes, then `startClaude`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { seedTrust } from '../../io/agent/claude/trust-seed.ts';
import { requireClaudeBinary } from '../harness/claude-binary.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { launchInTmux, type TmuxPane } from '../harness/claude-tmux.ts';
import { showsIdleBox } from '../harness/real-claude.ts';
import { handRunner, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
import { makeTempDir, waitForEvent } from '../helpers/temp.ts';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import type { WorkerStatus } from '../../contract/methods/fleet.ts';
import { removeWhenQuiet } from './e2e-world.ts';
import type { HandCall, HandScript } from './hand-script.ts';

/** The PATH of the Hand's session: node for the `hand` the kit names, and the system's tools. */
export const HAND_SESSION_PATH = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;

/** What Claude Code draws when it asks before a tool runs (permission dialog, MCP approval). */
export const PROMPT_MARKERS = ['Do you want to proceed?', 'Do you want to make this edit', 'New MCP server found', 'Use this MCP server', 'requires approval', 'Do you want to allow'];

/** The commits mock workers make (and the test's own git calls) carry this author. */
export const GIT_ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

/** Mock workers that play `scenario` (mock-agent's turns), run their bash steps and ask no permission. */
export function mockWorkersEnv(scenario: string): Record<string, string> {
  return { KH_MOCK_TICK_MS: '200', KH_MOCK_SCENARIO: scenario, KH_MOCK_PERMISSION_MODE: 'auto', KH_MOCK_RUN_BASH: '1', ...GIT_ID };
}

export class HandSession {
  fake!: FakeAnthropic;
  tmp!: { path: string; cleanup(): void };
  /** The person's HOME: Claude Code's, seeded as after onboarding. */
  home!: string;
  state!: string;
  ws!: string;
  /** Claude Code's environment, and every `hand` call's (so the daemon's and the workers'). */
  env!: Record<string, string>;
  hand!: HandRunner;
  pane: TmuxPane | null = null;
  /** The scripted Hand of the Claude session running now (none: the test queues on the fake); `scripts` keeps every one. */
  script!: HandScript;
  readonly scripts: HandScript[] = [];
  /** Every screen of every pane while it was up: a prompt drawn for a moment must not slip between reads. */
  readonly screens: string[] = [];
  private bin = '';
  private watching = true;

  /** The places under a new temp root, and the fake model API (started: its URL goes into the environment). */
  async open(label: string): Promise<void> {
    this.bin = requireClaudeBinary();
    this.tmp = makeTempDir(label);
    this.home = join(this.tmp.path, 'home');
    this.state = join(this.tmp.path, 'state');
    this.ws = join(this.tmp.path, 'ws');
    mkdirSync(this.home);
    // No script: the test queues the model's replies on the fake itself.
    this.fake = await startFakeAnthropic({ suggestion: null, keepRawBodies: true, respond: (s, seq) => (this.script ? this.script.respond(s, seq) : null) });
  }

  /** Claude Code's environment with `extra` over it, `hand init` of the workspace, the HOME seeded and the workspace trusted. */
  async init(extra: Record<string, string> = {}): Promise<void> {
    this.env = { ...claudeTestEnv({ home: this.home, baseUrl: this.fake.url, renderer: 'fullscreen', path: HAND_SESSION_PATH }), ...extra };
    this.hand = handRunner(this.state, this.env, 60_000);
    const init = await this.hand(['init', this.ws, '--json']);
    expect(init.code, init.stderr).toBe(0);
    const { claudeJsonPath } = seedClaudeHome({ home: this.home, worktrees: [], renderer: 'fullscreen' });
    expect(await seedTrust({ claudeJsonPath, worktree: this.ws })).toBe('seeded');
  }

  /**
   * The worker's row as `hand status <id> --json` prints it, asked over the daemon's socket (never
   * starting one): the waits poll it every 100–500 ms, and each `hand` process was a Node start
   * (~0.07 s of CPU) on the machine the Hand and its workers share.
   */
  async row(id: string): Promise<WorkerStatus | undefined> {
    return (await call(homePaths(this.state), 'status', { id }, { autostart: false }))[0];
  }

  /** A file under the temp root. */
  path(...parts: string[]): string {
    return join(this.tmp.path, ...parts);
  }

  /** Where dispatch puts a worker's report. */
  reportPathOf(id: string): string {
    return join(this.state, 'workers', id, 'out', 'report.md');
  }

  /** A brief with a goal and nothing to read first, written under the temp root. */
  brief(name: string, goal: string): string {
    const path = this.path(`${name}.md`);
    writeFileSync(path, `# ${name}\n\n## Goal\n\n${goal}\n\n## Read first\n\nNothing.\n`);
    return path;
  }

  /** The mock workers' turns, written for KH_MOCK_SCENARIO. */
  workerScenario(turns: unknown[]): string {
    const path = this.path('workers-scenario.json');
    writeFileSync(path, JSON.stringify({ turns }));
    return path;
  }

  /** The Monitor command the kit's CLAUDE.md gives the Hand, and the `hand` command it starts with. */
  kitCommands(): { watchCommand: string; handCommand: string } {
    const watchCommand = /Monitor with `([^`]+)`/.exec(readFileSync(join(this.ws, 'CLAUDE.md'), 'utf8'))![1]!;
    return { watchCommand, handCommand: watchCommand.replace(/ watch --needs-you.*$/, '') };
  }

  /** Claude Code in the workspace, in a new pane; `script` (if any) answers its model from now on. */
  async startClaude(script?: HandScript): Promise<TmuxPane> {
    if (script) {
      this.script = script;
      this.scripts.push(script);
    }
    const pane = await launchInTmux({ dir: this.tmp.path, cwd: this.ws, env: this.env, argv: [this.bin], control: true });
    this.pane = pane;
    void (async () => {
      while (this.watching && this.pane === pane) {
        this.screens.push(await pane.capture().catch(() => ''));
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    return pane;
  }

  async atIdleBox(): Promise<void> {
    await this.pane!.waitStable('the Hand at its idle box', { accept: showsIdleBox, timeoutMs: 30_000 });
  }

  /** The person types into the Hand's pane, as at a keyboard: the words, then Enter. */
  async person(words: string): Promise<void> {
    await this.pane!.type(words);
    await this.pane!.waitForScreen((s) => s.includes(words.slice(0, 40)), `the person's words "${words}" in the Hand's box`);
    await this.pane!.keys('Enter');
  }

  /** Resolves once the scripted Hand has closed the turn `key` (said its words), already or later. */
  saidBy(key: string, timeoutMs = 60_000): Promise<string> {
    const script = this.script;
    const done = () => script.said.get(key);
    if (done()) return Promise.resolve(done()!);
    const wakes = () => script.notifications.flatMap((n) => [...n.matchAll(/<event>([^<]{0,60})/g)].map((m) => m[1])).join(' | ');
    return waitForEvent((l) => this.fake.onRequest(l), () => done() !== undefined, { what: `the Hand to finish its turn for ${key} (started: ${script.started.join(', ')}; wake lines received: ${wakes()})`, timeoutMs }).then(() => done()!);
  }

  /** The tool calls of one turn of the session running now. */
  callsOf(turn: string): HandCall[] {
    return this.script.calls.filter((c) => c.turn === turn);
  }

  /** The screens that drew a permission prompt. */
  promptedScreens(): string[] {
    return this.screens.filter((s) => PROMPT_MARKERS.some((m) => s.includes(m)));
  }

  /**
   * Ends the session: the last screen kept (and, with KH_DEBUG_TRANSCRIPT, the screens, calls and
   * wake lines written there with `more` sections), its pane, the named workers and the
   * installation, the fake, then its files once quiet. Undoes only what was made before a failure.
   */
  async close(workers: string[], more: Record<string, string> = {}): Promise<void> {
    this.watching = false;
    if (this.pane) {
      this.screens.push(await this.pane.capture().catch(() => ''));
      if (process.env.KH_DEBUG_TRANSCRIPT) writeFileSync(process.env.KH_DEBUG_TRANSCRIPT, this.transcript(more));
      await this.pane.kill();
    }
    if (this.hand) {
      for (const id of workers) await this.hand(['stop', id, '--json'], { timeoutMs: 30_000 });
      await stopInstallation(this.hand, this.state, 20_000);
    }
    await this.fake?.close();
    if (this.tmp) await removeWhenQuiet(this.tmp.cleanup);
  }

  private transcript(more: Record<string, string>): string {
    const screens = this.screens.filter((_, i, a) => i === 0 || a[i - 1] !== a[i]).join('\n=====\n');
    const sections = { CALLS: JSON.stringify(this.scripts.flatMap((x) => x.calls), null, 1), ...more, NOTIFICATIONS: this.scripts.flatMap((x) => x.notifications).join('\n---\n') };
    return [screens, ...Object.entries(sections).map(([name, text]) => `=====${name}\n${text}`)].join('\n');
  }
}
