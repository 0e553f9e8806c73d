/**
 * `npm run capture -- --agent qwen --version <v> [--backend tmux|pty|both] [--only a,b]`
 *
 * Runs the scenarios of qwen-scenarios.ts against the fake Anthropic API with Qwen Code <v> (the
 * pinned one, others from ~/.cache/kingshand/qwen/<v>: tests/harness/real-qwen.ts) under tmux
 * and/or node-pty, set up by the product's own code (a person's Anthropic auth pointed at the
 * fake, a worker's settings for the posture), and writes labelled fixtures to
 * tests/fixtures/qwen-corpus/<v>/<backend>-<scenario>.{txt,ansi.txt,json}.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { launchInTmux } from '../harness/claude-tmux.ts';
import { prepareQwenRun } from '../harness/real-qwen.ts';
import { launchInPty, type CapturePane } from './pty-pane.ts';
import { QWEN_SCENARIOS, type QwenScenario } from './qwen-scenarios.ts';
import { withRequests, writeFixture } from './fixture-file.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const QWEN_CORPUS_DIR = join(ROOT, 'tests', 'fixtures', 'qwen-corpus');

async function runOne(version: string, backend: 'tmux' | 'pty', scenario: QwenScenario, fake: FakeAnthropic): Promise<void> {
  const cols = scenario.setup.cols ?? 120;
  const rows = scenario.setup.rows ?? 40;
  const run = await prepareQwenRun({ baseUrl: fake.url, posture: scenario.setup.posture ?? 'ask', version, noAuth: scenario.setup.noAuth === true });
  let pane: CapturePane | undefined;
  try {
    pane = backend === 'tmux'
      ? await launchInTmux({ dir: run.root, cwd: run.worktree, env: run.env, argv: run.argv, cols, rows })
      : launchInPty({ cwd: run.worktree, env: run.env, argv: run.argv, cols, rows });
    fake.reset();
    const expected = await scenario.drive(pane, fake).catch((err: unknown) => {
      const asked = fake.received.filter((r) => r.kind !== undefined).map((r) => `${r.kind}:${r.reply?.kind ?? '?'}${r.reply?.kind === 'tool_use' ? `(${r.reply.name})` : ''} ${JSON.stringify((r.summary?.lastPromptText ?? '').slice(0, 40))}`);
      throw withRequests(err, asked);
    });
    await writeFixture(pane, join(QWEN_CORPUS_DIR, version), run.root, { agent: 'qwen', version, backend, cols, rows, scenario: scenario.name, expected });
    console.error(`ok   qwen ${version} ${backend} ${scenario.name} → ${expected.state}`);
  } finally {
    await pane?.kill();
    run.cleanup();
  }
}

export async function captureQwen(version: string, backends: readonly ('tmux' | 'pty')[], only?: readonly string[]): Promise<number> {
  const fake = await startFakeAnthropic({ suggestion: null, slowWordDelayMs: 700, slowWordCount: 40 });
  let failed = 0;
  try {
    for (const scenario of QWEN_SCENARIOS) {
      if (only && !only.includes(scenario.name)) continue;
      for (const backend of backends) {
        if (scenario.backends && !scenario.backends.includes(backend)) continue;
        try {
          await runOne(version, backend, scenario, fake);
        } catch (err) {
          failed++;
          console.error(`FAIL qwen ${version} ${backend} ${scenario.name}: ${(err as Error).message.slice(0, 3000)}`);
        }
      }
    }
  } finally {
    await fake.close();
  }
  return failed;
}
