/**
 * One product installation for the real-Claude end-to-end tests: a private `hand` state dir (so
 * its own daemon, database and tmux server), a temp git repository already annexed, and a
 * throwaway agent HOME seeded like a person's who finished onboarding. `hand dispatch` sends its
 * own environment to the daemon, so the env built here (claudeTestEnv) is exactly what the real
 * Claude Code worker gets. Folder trust is left to the product's dispatch (seedClaudeHome with no
 * worktrees), so these tests exercise that code too.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeTestEnv, seedClaudeHome, type ClaudeRenderer } from '../harness/claude-env.ts';
import { requireClaudeBinary } from '../harness/claude-binary.ts';
import { afterAll, beforeAll } from 'vitest';
import { startFakeAnthropic, toolUseIdOf, type FakeAnthropic, type FakeAnthropicOptions, type RequestRecord } from '../../io/fake-model/anthropic.ts';
import { writeBrief, type CliWorld, type RunResult } from '../cli/cli-harness.ts';
import { inProcessHand } from '../helpers/hand-in-process.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { makeTempDir, waitForEvent } from '../helpers/temp.ts';
import { unquoteScreen } from '../../contract/worker-words.ts';

export type Backend = 'tmux' | 'pty';

/** The CLI world of tests/cli (home = hand's --home, agentHome = the worker's HOME), plus Claude's config. */
export interface E2eWorld extends Omit<CliWorld, 'cleanup'> {
  claudeJsonPath: string;
  /** Where dispatch puts a worker's report (the same rule as daemon/fleet/dispatch.ts). */
  reportPathOf(id: string): string;
  worktreeOf(id: string): string;
  /** `hand dispatch … --json`; throws with the CLI's output when it does not exit 0. */
  dispatch(id: string, backend: Backend, task: string, extra?: string[], env?: Record<string, string>): Promise<RunResult>;
  /** `hand wait … --json` with a bound; the report's JSON is in `.json`. */
  wait(id: string, until: 'settled' | 'blocked' | 'stalled' | 'exited', timeout: string): Promise<RunResult>;
  /** The worker's row from `hand status --json`. */
  status(id: string): Promise<Record<string, any>>;
  /** The worker's visible screen (`hand read --json` text). */
  read(id: string): Promise<string>;
  /** What hand says about a worker (screen + status), for a failure message that explains itself. */
  explain(id: string): Promise<string>;
  /** fakeRequest, with the worker's screen and status in the message when it times out. */
  request(id: string, since: number, accept: (r: RequestRecord) => boolean, what: string, timeoutMs?: number): Promise<RequestRecord>;
  cleanup(): Promise<void>;
}

/**
 * `env`: more variables for every `hand` call, so the daemon that `annex` starts already runs
 * with them (HAND_CLAUDE_BIN: a second daemon start only to change it cost ~2.5 s).
 */
export interface E2eOptions {
  renderer?: ClaudeRenderer;
  permissions?: 'off' | 'edits' | 'ask';
  yolo?: boolean;
  env?: Record<string, string>;
  daemonProcess?: boolean;
}

/** A fake Anthropic API for the file's tests: started before them (`ready` takes it), closed after them. */
export function useFakeAnthropic(ready: (fake: FakeAnthropic) => void, options: FakeAnthropicOptions = {}): void {
  let fake: FakeAnthropic | undefined;
  beforeAll(async () => {
    fake = await startFakeAnthropic(options);
    ready(fake);
  });
  afterAll(async () => {
    await fake?.close();
  });
}

/**
 * The opening most real-Claude files wrote again: a fake Anthropic API and a world over it, made
 * before the file's tests (`ready` then takes both, and may prepare more) and undone after them,
 * the world before the fake it talks to.
 */
export function useE2eWorld(label: string, opts: E2eOptions, fakeOptions: FakeAnthropicOptions, ready: (made: { fake: FakeAnthropic; w: E2eWorld }) => void | Promise<void>): void {
  let fake: FakeAnthropic | undefined;
  let w: E2eWorld | undefined;
  beforeAll(async () => {
    fake = await startFakeAnthropic(fakeOptions);
    w = await makeE2eWorld(label, fake, opts);
    await ready({ fake, w });
  });
  afterAll(async () => {
    await w?.cleanup();
    await fake?.close();
  });
}

/**
 * The places of a real-agent world under one temp root: the state directory, the repository and
 * the agent's own HOME (made; the repository is the caller's to make).
 */
export function agentWorldPlaces(label: string): { tmp: { path: string; cleanup(): void }; root: string; home: string; repo: string; agentHome: string } {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const agentHome = join(root, 'agent-home');
  mkdirSync(agentHome);
  return { tmp, root, home: join(root, 'state'), repo: join(root, 'repo'), agentHome };
}

export async function makeE2eWorld(label: string, fake: FakeAnthropic, opts: E2eOptions = {}): Promise<E2eWorld> {
  requireClaudeBinary();
  const { tmp, root, home, repo, agentHome } = agentWorldPlaces(label);
  const renderer = opts.renderer ?? 'fullscreen';
  const { claudeJsonPath } = seedClaudeHome({ home: agentHome, worktrees: [], renderer });
  await makeTestRepo(repo, '# e2e repo\n');
  // The daemon is started by the CLI with this environment too: node must be on PATH for it.
  const path = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;
  const env = { ...claudeTestEnv({ home: agentHome, baseUrl: fake.url, renderer, path }), ...opts.env };

  // The calls run in process (no Node start each); the daemon too, unless a test SIGKILLs it.
  const installation = inProcessHand(home, env, 90_000, { daemonProcess: opts.daemonProcess === true });
  const hand = installation.hand;
  // --yolo: these tests are about the worker's screens, not the brief/landing gates (tested in tests/cli).
  // --permissions edits unless asked: these suites were written against prompts that ask for
  // commands (the posture of their time); the default posture 'off' has its own suite.
  // yolo: false for a suite that walks both gates (brief approval, landing approval) as a person does.
  const yolo = opts.yolo === false ? [] : ['--yolo'];
  const annex = await hand(['annex', repo, ...yolo, '--permissions', opts.permissions ?? 'edits', '--json']);
  if (annex.code !== 0) throw new Error(`hand annex failed (${annex.code}): ${annex.stdout}${annex.stderr}`);

  const world: E2eWorld = {
    root, home, repo, agentHome, claudeJsonPath, env, hand,
    brief: (name, task) => writeBrief(root, name, task),
    reportPathOf: (id) => join(home, 'workers', id, 'out', 'report.md'),
    worktreeOf: (id) => join(repo, '.claude', 'worktrees', id),
    async dispatch(id, backend, task, extra = [], e) {
      const brief = world.brief(id, task);
      const d = await hand(['dispatch', id, '--repo', repo, '--brief', brief, '--agent', 'claude', '--backend', backend, '--json', ...extra], { env: e });
      if (d.code !== 0) throw new Error(`hand dispatch ${id} failed (${d.code}): ${d.stdout}${d.stderr}`);
      return d;
    },
    wait: (id, until, timeout) => handWait(hand, id, until, timeout),
    explain: (id) => explainWorker(hand, id),
    async request(id, since, accept, what, timeoutMs) {
      try {
        return await fakeRequest(fake, since, accept, what, timeoutMs);
      } catch (err) {
        const seen = fake.received.filter((r) => r.seq > since).map((r) => `${r.seq} ${r.method} ${r.path} ${r.kind ?? ''} ${r.reply?.kind ?? ''}`);
        throw new Error(`${(err as Error).message}\n--- fake received since ${since}: ${seen.join('; ') || 'nothing'}\n${await world.explain(id)}`);
      }
    },
    async status(id) {
      const s = await hand(['status', id, '--json']);
      if (s.code !== 0 || !Array.isArray(s.json)) throw new Error(`hand status ${id} failed (${s.code}): ${s.stdout}${s.stderr}`);
      return s.json[0];
    },
    async read(id) {
      const r = await hand(['read', id, '--json']);
      if (r.code !== 0) throw new Error(`hand read ${id} failed (${r.code}): ${r.stdout}${r.stderr}`);
      // The screen's own lines, out of the quote hand read gives them in (issue 37).
      return unquoteScreen(r.json.text as string);
    },
    cleanup: () => stopWorkersAndRemove(hand, installation, tmp),
  };
  return world;
}

/**
 * Workers leave through their exit command first (an agent killed with its server still writes
 * into the agent HOME while the directory is being removed), then the installation and the tree go.
 */
export async function stopWorkersAndRemove(hand: CliWorld['hand'], installation: { cleanup(): Promise<void> }, tmp: { cleanup(): void }): Promise<void> {
  const s = await hand(['status', '--json'], { timeoutMs: 30_000 });
  const live = Array.isArray(s.json) ? s.json.filter((w: { live?: boolean }) => w.live).map((w: { id: string }) => w.id) : [];
  await Promise.all(live.map((id: string) => hand(['stop', id, '--json'], { timeoutMs: 30_000 })));
  await installation.cleanup();
  await removeWhenQuiet(tmp.cleanup);
}

/** `hand wait … --json` with a bound; a wait that did not end as asked carries the screen and status into the assertion message. */
export async function handWait(hand: CliWorld['hand'], id: string, until: string, timeout: string): Promise<RunResult> {
  const r = await hand(['wait', id, '--until', until, '--timeout', timeout, '--json']);
  if (r.code !== 0) r.stderr += `\n${await explainWorker(hand, id)}`;
  return r;
}

/** What hand says about a worker (screen + status), for a failure message that explains itself. */
export async function explainWorker(hand: CliWorld['hand'], id: string): Promise<string> {
  const [screen, status] = await Promise.all([hand(['read', id, '--json']), hand(['status', '--json'])]);
  return `--- hand read ${id}:\n${screen.json?.text ?? screen.stdout + screen.stderr}\n--- hand status --json:\n${status.stdout}${status.stderr}`;
}

/** A process that was just told to leave may still write a file or two: retry the removal briefly. */
export async function removeWhenQuiet(remove: () => void): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return remove();
    } catch (err) {
      if (i >= 20) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * Resolves with the first request after `since` (a seq watermark: one fake serves every worker
 * of a file) that `accept` takes, already received or arriving.
 */
export function fakeRequest(fake: FakeAnthropic, since: number, accept: (r: RequestRecord) => boolean, what: string, timeoutMs = 45_000): Promise<RequestRecord> {
  const take = (r: RequestRecord) => r.seq > since && accept(r);
  const seen = fake.received.find(take);
  if (seen) return Promise.resolve(seen);
  return waitForEvent((l) => fake.onRequest(l), take, { what: `the fake model server to receive ${what}`, timeoutMs });
}

/** The seq of the last request so far: later requests belong to what the test does next. */
export const watermark = (fake: FakeAnthropic): number => fake.received.at(-1)?.seq ?? 0;

/** The fake answered with a tool_use of this tool. */
export const repliedWithTool = (name: string) => (r: RequestRecord) => r.reply?.kind === 'tool_use' && r.reply.name === name;

/** Claude Code sent back the result of a tool call (the fake's id for it starts with toolu_fake_). */
export const sentToolResult = (pred: (content: string) => boolean = () => true) => (r: RequestRecord) =>
  r.kind === 'main' && (r.summary?.toolResults ?? []).some((t) => pred(t.content));

/**
 * Claude Code sent back the result of the tool call the fake made in `call` (matched by its
 * tool-use id, not by words: the brief, with its decision-convention example, shares words with
 * the tool calls its triggers lead to).
 */
export const sentResultOf = (call: RequestRecord) => {
  const id = toolUseIdOf(call);
  return (r: RequestRecord) => id !== null && r.kind === 'main' && (r.summary?.toolResults ?? []).some((t) => t.toolUseId === id);
};

/** The trust entry Claude Code reads for `worktree` in the agent HOME's ~/.claude.json. */
export function trustEntryOf(world: E2eWorld, worktree: string): { hasTrustDialogAccepted?: boolean } | undefined {
  const config = JSON.parse(readFileSync(world.claudeJsonPath, 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> };
  return config.projects?.[worktree];
}
