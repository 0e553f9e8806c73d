/**
 * `npm run capture -- --agent gemini --version <v> [--backend tmux|pty|both] [--only a,b]`
 *
 * Runs the scenarios of gemini-scenarios.ts against the fake Gemini API with Gemini CLI <v>
 * (the pinned one from node_modules, others from ~/.cache/kingshand/gemini/<v>) under tmux
 * and/or node-pty, seeded by the product's own code, and writes labelled fixtures to
 * tests/fixtures/gemini-corpus/<v>/<backend>-<scenario>.{txt,ansi.txt,json}.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeGemini, type FakeGemini } from '../../io/fake-model/gemini.ts';
import { launchInTmux } from '../harness/claude-tmux.ts';
import { prepareGeminiRun } from '../harness/real-gemini.ts';
import { launchInPty, type CapturePane } from './pty-pane.ts';
import { GEMINI_SCENARIOS, type GeminiScenario } from './gemini-scenarios.ts';
import { withRequests, writeFixture } from './fixture-file.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const GEMINI_CORPUS_DIR = join(ROOT, 'tests', 'fixtures', 'gemini-corpus');

async function runOne(version: string, backend: 'tmux' | 'pty', scenario: GeminiScenario, fake: FakeGemini): Promise<void> {
  const cols = scenario.setup.cols ?? 120;
  const rows = scenario.setup.rows ?? 40;
  const run = await prepareGeminiRun({ baseUrl: fake.url, trusted: scenario.setup.trusted ?? true, apiKey: scenario.setup.apiKey ?? true, version });
  const argv = [run.bin, '--approval-mode', scenario.setup.mode ?? 'default'];
  let pane: CapturePane | undefined;
  try {
    pane = backend === 'tmux'
      ? await launchInTmux({ dir: run.root, cwd: run.worktree, env: run.env, argv, cols, rows })
      : launchInPty({ cwd: run.worktree, env: run.env, argv, cols, rows });
    fake.reset();
    const expected = await scenario.drive(pane, fake).catch((err: unknown) => {
      const asked = fake.received.filter((r) => r.kind !== undefined).map((r) => `${r.kind}:${r.reply?.kind ?? '?'}${r.reply?.kind === 'call' ? `(${r.reply.name})` : ''} ${JSON.stringify((r.summary?.lastPromptText ?? '').slice(0, 40))}`);
      throw withRequests(err, asked);
    });
    await writeFixture(pane, join(GEMINI_CORPUS_DIR, version), run.root, { agent: 'gemini', version, backend, cols, rows, scenario: scenario.name, expected });
    console.error(`ok   gemini ${version} ${backend} ${scenario.name} → ${expected.state}`);
  } finally {
    await pane?.kill();
    run.cleanup();
  }
}

export async function captureGemini(version: string, backends: readonly ('tmux' | 'pty')[], only?: readonly string[]): Promise<number> {
  const fake = await startFakeGemini();
  let failed = 0;
  try {
    for (const scenario of GEMINI_SCENARIOS) {
      if (only && !only.includes(scenario.name)) continue;
      for (const backend of backends) {
        if (scenario.backends && !scenario.backends.includes(backend)) continue;
        try {
          await runOne(version, backend, scenario, fake);
        } catch (err) {
          failed++;
          console.error(`FAIL gemini ${version} ${backend} ${scenario.name}: ${(err as Error).message.slice(0, 3000)}`);
        }
      }
    }
  } finally {
    await fake.close();
  }
  return failed;
}
