/**
 * `npm run capture -- --agent codex --version <v> [--backend tmux|pty|both] [--only a,b]`
 *
 * Runs the Codex scenarios against the fake Responses API with @openai/codex@<version> (the
 * pinned one from node_modules, others installed into ~/.cache/kingshand/codex/<version>) and
 * writes labelled fixtures to tests/fixtures/codex-corpus/<version>/<backend>-<scenario>.*.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codexLaunchArgs } from '../../../io/agent/codex/launch.ts';
import { seedCodexTrust } from '../../../io/agent/codex/trust-seed.ts';
import { startFakeCodexApi } from '../../../io/fake-model/codex.ts';
import { codexTestEnv, seedCodexHome } from '../../harness/codex-env.ts';
import { codexBinaryFor } from '../../harness/codex-versions.ts';
import { launchInTmux } from '../../harness/claude-tmux.ts';
import { makeTempDir } from '../../helpers/temp.ts';
import { launchInPty, type CapturePane } from '../pty-pane.ts';
import { CODEX_SCENARIOS, type CodexScenario } from './scenarios.ts';
import { execFileSync } from 'node:child_process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CODEX_CORPUS_DIR = join(ROOT, 'tests', 'fixtures', 'codex-corpus');
const COLS = 100;
const ROWS = 30;

async function runOne(version: string, bin: string, backend: 'tmux' | 'pty', scenario: CodexScenario): Promise<void> {
  // A fake of its own per run: a request of the last session still in flight takes no reply of this one.
  const fake = await startFakeCodexApi();
  const dir = makeTempDir('codex-capture');
  const home = seedCodexHome(join(dir.path, 'home'), fake.url);
  const worktree = join(dir.path, 'work');
  mkdirSync(join(worktree, '.codex'), { recursive: true });
  writeFileSync(join(worktree, '.codex', 'config.toml'), 'model_reasoning_effort = "low"\n');
  execFileSync('git', ['init', '-q', worktree]);
  if (!scenario.untrusted) seedCodexTrust({ configPath: home.configPath, worktree });
  const argv = [bin, ...codexLaunchArgs({ posture: scenario.posture ?? 'edits' })];
  let pane: CapturePane | undefined;
  try {
    const env = codexTestEnv(home);
    pane = backend === 'tmux'
      ? await launchInTmux({ dir: dir.path, cwd: worktree, env, argv, cols: COLS, rows: ROWS })
      : launchInPty({ cwd: worktree, env, argv, cols: COLS, rows: ROWS });
    const expected = await scenario.drive(pane, fake, { worktree });
    const plain = await pane.capture();
    const ansi = await pane.capture({ ansi: true });
    const out = join(CODEX_CORPUS_DIR, version);
    mkdirSync(out, { recursive: true });
    const base = join(out, `${backend}-${scenario.name}`);
    // Machine paths of the throwaway run never go into the repository.
    const scrub = (s: string) => s.split(dir.path).join('/tmp/kh-capture');
    writeFileSync(`${base}.txt`, scrub(plain));
    writeFileSync(`${base}.ansi.txt`, scrub(ansi));
    const meta = { agent: 'codex', version, backend, cols: COLS, rows: ROWS, scenario: scenario.name, expected, captured: new Date().toISOString().slice(0, 10) };
    writeFileSync(`${base}.json`, JSON.stringify(meta, null, 2) + '\n');
    console.error(`ok   codex ${version} ${backend} ${scenario.name} → ${expected.state}`);
  } finally {
    await pane?.kill();
    await fake.close();
    dir.cleanup();
  }
}

export async function captureCodex(version: string, backends: readonly ('tmux' | 'pty')[], only: readonly string[] | undefined): Promise<number> {
  const bin = codexBinaryFor(version, { log: (line) => console.error(line) });
  let failed = 0;
  for (const scenario of CODEX_SCENARIOS) {
    if (only && !only.includes(scenario.name)) continue;
    for (const backend of backends) {
      if (scenario.backends && !scenario.backends.includes(backend)) continue;
      try {
        await runOne(version, bin, backend, scenario);
      } catch (err) {
        failed++;
        console.error(`FAIL codex ${version} ${backend} ${scenario.name}: ${(err as Error).message.slice(0, 3000)}`);
      }
    }
  }
  return failed;
}
