/**
 * `npm run capture -- --agent gemini|opencode|qwen --version <v> [--backend tmux|pty|both] [--only a,b]`
 *
 * Runs an agent's scenarios (gemini-scenarios.ts, opencode-scenarios.ts, qwen-scenarios.ts)
 * against its fake model API with the agent at <v> (the pinned one, others from
 * ~/.cache/kingshand/<agent>/<v>: tests/harness/real-<agent>.ts) under tmux and/or node-pty, set
 * up by the product's own code, and writes labelled fixtures to
 * tests/fixtures/<agent>-corpus/<v>/<backend>-<scenario>.{txt,ansi.txt,json}. The run is one for
 * the three; each agent below names its scenarios, its fake and how a run of it is prepared:
 *  - Gemini CLI: the fake Gemini API, seeded trust and workspace settings, `--approval-mode`;
 *  - OpenCode: the fake Anthropic API, a person's provider pointed at it, a worker's launch variables;
 *  - Qwen Code: the fake Anthropic API, a person's Anthropic auth, a worker's settings for the posture.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { releaseHeldStart } from '../helpers/held-start.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { startFakeGemini, type FakeGemini } from '../../io/fake-model/gemini.ts';
import { launchInTmux } from '../harness/claude-tmux.ts';
import { prepareGeminiRun } from '../harness/real-gemini.ts';
import { prepareOpencodeRun } from '../harness/real-opencode.ts';
import { prepareQwenRun } from '../harness/real-qwen.ts';
import { launchInPty, type CapturePane } from './pty-pane.ts';
import { GEMINI_SCENARIOS, type GeminiScenario } from './gemini-scenarios.ts';
import { OPENCODE_SCENARIOS, type OpencodeScenario } from './opencode-scenarios.ts';
import { QWEN_SCENARIOS, type QwenScenario } from './qwen-scenarios.ts';
import type { AgentScenario as AgentScenarioOf } from './agent-scenarios.ts';
import { captureEach, withRequests, writeFixture } from './fixture-file.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
type Backend = 'tmux' | 'pty';

interface Run {
  root: string;
  worktree: string;
  env: Record<string, string>;
  /** The launch argv, program first. */
  argv: string[];
  /** Lets a start held open go on (before the pane is killed: a Gemini CLI held in its start outlived the kill). */
  release?(): void;
  cleanup(): void;
}

interface Fake {
  url: string;
  received: readonly { kind?: string; reply?: { kind: string; name?: string }; summary?: { lastPromptText?: string | null } }[];
  reset(): void;
  close(): Promise<void>;
}

type AgentScenario<F, R> = AgentScenarioOf<{ cols: number; rows: number }, F, R>;

/** One agent's corpus: its scenarios, its fake, how a run of `version` is prepared for a scenario, and its fake's word for a tool call. */
interface CorpusAgent<F extends Fake, R extends Run, S extends AgentScenario<F, R>> {
  scenarios: readonly S[];
  startFake(): Promise<F>;
  prepare(scenario: S, fake: F, version: string): Promise<R>;
  callKind: string;
}

/** Each agent's types are checked where it is written; the table then holds the three alike (the runner gives a scenario only its own agent's fake and run). */
const corpusAgent = <F extends Fake, R extends Run, S extends AgentScenario<F, R>>(a: CorpusAgent<F, R, S>) => a as unknown as CorpusAgent<Fake, Run, AgentScenario<Fake, Run>>;

const AGENTS = {
  gemini: corpusAgent<FakeGemini, Run, GeminiScenario>({
    scenarios: GEMINI_SCENARIOS,
    startFake: () => startFakeGemini(),
    async prepare(scenario, fake, version) {
      const run = await prepareGeminiRun({ baseUrl: fake.url, trusted: scenario.setup.trusted ?? true, apiKey: scenario.setup.apiKey ?? true, version });
      const pipe = join(run.worktree, 'GEMINI.md');
      if (scenario.setup.heldStart === true) await execa('mkfifo', [pipe]);
      return { ...run, argv: [run.bin, '--approval-mode', scenario.setup.mode ?? 'default'], ...(scenario.setup.heldStart === true && { release: () => releaseHeldStart(pipe) }) };
    },
    callKind: 'call',
  }),
  opencode: corpusAgent<FakeAnthropic, Run, OpencodeScenario>({
    scenarios: OPENCODE_SCENARIOS,
    startFake: () => startFakeAnthropic({ suggestion: null, slowWordDelayMs: 700, slowWordCount: 40 }),
    async prepare(scenario, fake, version) {
      const run = await prepareOpencodeRun({ baseUrl: fake.url, posture: scenario.setup.posture ?? 'ask', version });
      return { ...run, argv: [run.bin] };
    },
    callKind: 'tool_use',
  }),
  qwen: corpusAgent<FakeAnthropic, Run, QwenScenario>({
    scenarios: QWEN_SCENARIOS,
    startFake: () => startFakeAnthropic({ suggestion: null, slowWordDelayMs: 700, slowWordCount: 40 }),
    prepare: (scenario, fake, version) => prepareQwenRun({ baseUrl: fake.url, posture: scenario.setup.posture ?? 'ask', version, noAuth: scenario.setup.noAuth === true }),
    callKind: 'tool_use',
  }),
};

export type FakeApiAgent = keyof typeof AGENTS;
export const isFakeApiAgent = (agent: string | undefined): agent is FakeApiAgent => agent !== undefined && Object.hasOwn(AGENTS, agent);

async function runOne(agent: FakeApiAgent, version: string, backend: Backend, scenario: AgentScenario<Fake, Run>, fake: Fake): Promise<void> {
  const a = AGENTS[agent];
  const cols = scenario.setup.cols ?? 120;
  const rows = scenario.setup.rows ?? 40;
  const run = await a.prepare(scenario, fake, version);
  let pane: CapturePane | undefined;
  try {
    pane = backend === 'tmux'
      ? await launchInTmux({ dir: run.root, cwd: run.worktree, env: run.env, argv: run.argv, cols, rows })
      : launchInPty({ cwd: run.worktree, env: run.env, argv: run.argv, cols, rows });
    fake.reset();
    const expected = await scenario.drive(pane, fake, run).catch((err: unknown) => {
      // what the fake was asked and answered: a reply taken by another request shows here
      const asked = fake.received.filter((r) => r.kind !== undefined).map((r) => `${r.kind}:${r.reply?.kind ?? '?'}${r.reply?.kind === a.callKind ? `(${r.reply.name})` : ''} ${JSON.stringify((r.summary?.lastPromptText ?? '').slice(0, 40))}`);
      throw withRequests(err, asked);
    });
    await writeFixture(pane, join(ROOT, 'tests', 'fixtures', `${agent}-corpus`, version), run.root, { agent, version, backend, cols, rows, scenario: scenario.name, expected });
    console.error(`ok   ${agent} ${version} ${backend} ${scenario.name} → ${expected.state}`);
  } finally {
    run.release?.();
    await pane?.kill();
    run.cleanup();
  }
}

/** Captures `agent` at `version` on each backend (the scenarios named in `only`, else all); the number that failed. */
export async function captureFakeApiAgent(agent: FakeApiAgent, version: string, backends: readonly Backend[], only?: readonly string[]): Promise<number> {
  const fake = await AGENTS[agent].startFake();
  try {
    return await captureEach(`${agent} ${version}`, AGENTS[agent].scenarios, backends, only, (scenario, backend) => runOne(agent, version, backend, scenario, fake));
  } finally {
    await fake.close();
  }
}
