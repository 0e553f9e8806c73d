/**
 * `npm run capture -- --agent codex --version <v> [--backend tmux|pty|both] [--only a,b]`
 *
 * Runs the Codex scenarios against the fake Responses API with @openai/codex@<version> (the
 * pinned one from node_modules, others installed into ~/.cache/kingshand/codex/<version>) and
 * writes labelled fixtures to tests/fixtures/codex-corpus/<version>/<backend>-<scenario>.*.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
import { captureEach } from '../fixture-file.ts';
import { execFileSync } from 'node:child_process';
import type { PermissionPosture } from '../../../contract/vocabulary.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CODEX_CORPUS_DIR = join(ROOT, 'tests', 'fixtures', 'codex-corpus');
const COLS = 100;
const ROWS = 30;

/**
 * The product's launch arguments, less `--no-daemon` for a release that does not know it (0.140.0
 * and older stop at start with "unexpected argument"; they start no app-server daemon to leave
 * behind either). Asked of the binary's own --help, never guessed from its version number.
 */
function launchArgsFor(bin: string, posture: PermissionPosture, notify: readonly string[]): string[] {
  const args = codexLaunchArgs({ posture, notify });
  const help = execFileSync(bin, ['--help'], { encoding: 'utf8', timeout: 30_000 });
  return help.includes('--no-daemon') ? args : args.filter((a) => a !== '--no-daemon');
}

/** Resolves once the notify file holds `n` agent-turn-complete events (bounded, polled: a file has no event to wait on). */
async function waitForTurns(path: string, n: number, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.includes('agent-turn-complete')) : [];
    if (lines.length >= n) return;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for Codex's notify to report ${what} (turn ${n}; ${lines.length} reported)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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
  // Codex's own word that a turn ended: its notify command appends each event's JSON to a file.
  const notes = join(dir.path, 'notify.jsonl');
  const recorder = [process.execPath, '-e', 'require("node:fs").appendFileSync(process.argv[1], process.argv.at(-1) + "\\n")', notes];
  const argv = [bin, ...launchArgsFor(bin, scenario.posture ?? 'edits', recorder)];
  let pane: CapturePane | undefined;
  try {
    const env = codexTestEnv(home);
    pane = backend === 'tmux'
      ? await launchInTmux({ dir: dir.path, cwd: worktree, env, argv, cols: COLS, rows: ROWS })
      : launchInPty({ cwd: worktree, env, argv, cols: COLS, rows: ROWS });
    const turnsCompleted = (n: number, what: string) => waitForTurns(notes, n, what);
    const expected = await scenario.drive(pane, fake, { worktree, turnsCompleted });
    const plain = await pane.capture();
    const ansi = await pane.capture({ ansi: true });
    const out = join(CODEX_CORPUS_DIR, version);
    mkdirSync(out, { recursive: true });
    const base = join(out, `${backend}-${scenario.name}`);
    // Machine paths of the throwaway run never go into the repository.
    // A path Codex wrapped over two rows is cut inside the temp directory's name: its random
    // part goes too, wherever it stands.
    const random = basename(dir.path).slice(basename(dir.path).lastIndexOf('-') + 1);
    const scrub = (s: string) => s.split(dir.path).join('/tmp/kh-capture').split(random).join('XXXXXX');
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
  return captureEach(`codex ${version}`, CODEX_SCENARIOS, backends, only, (scenario, backend) => runOne(version, bin, backend, scenario));
}
