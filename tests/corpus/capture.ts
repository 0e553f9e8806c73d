/**
 * `npm run capture -- --claude <version> [--backend tmux|pty|both] [--only a,b]`
 * `npm run capture -- --agent gemini --version <version> […]` (capture-gemini.ts)
 * `npm run capture -- --agent codex --version <version> …` (Codex CLI: codex/capture-codex.ts)
 * `npm run capture -- --agent opencode --version <version> […]` (capture-opencode.ts)
 * `npm run capture -- --agent qwen --version <version> […]` (capture-qwen.ts)
 *
 * Installs @anthropic-ai/claude-code@<version> into ~/.cache/kingshand/claude/<version> (outside
 * the repository; the pinned version comes from node_modules), runs the scripted scenarios of
 * scenarios.ts against the fake model API under tmux and/or node-pty, and writes labelled
 * fixtures to tests/fixtures/claude-corpus/<version>/<backend>-<scenario>.{txt,ansi.txt,json}.
 * CPU heavy: run one at a time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { launchInTmux } from '../harness/claude-tmux.ts';
import { prepareClaudeRun } from '../harness/real-claude.ts';
import { claudeBinaryFor } from '../harness/claude-versions.ts';
import { launchInPty, type CapturePane } from './pty-pane.ts';
import { SCENARIOS, ScenarioSkipped, type Scenario } from './scenarios.ts';
import { ISSUE_21_SCENARIOS } from './scenarios-issue-21.ts';
import { captureCodex } from './codex/capture-codex.ts';
import { captureGemini } from './capture-gemini.ts';
import { captureOpencode } from './capture-opencode.ts';
import { captureQwen } from './capture-qwen.ts';
import { withRequests, writeFixture } from './fixture-file.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS_DIR = join(ROOT, 'tests', 'fixtures', 'claude-corpus');

/** The claude executable for `version`, installing it into the cache when missing. */
const binaryFor = (version: string): string => claudeBinaryFor(version, { log: (line) => console.error(line) });

/** 2.0.x crashes on a project entry without these lists (`B.allowedTools is not iterable`). */
function oldVersionProjectDefaults(claudeJsonPath: string): void {
  const json = JSON.parse(readFileSync(claudeJsonPath, 'utf8')) as { projects?: Record<string, Record<string, unknown>> };
  for (const entry of Object.values(json.projects ?? {})) {
    entry.allowedTools ??= [];
    entry.mcpContextUris ??= [];
    entry.mcpServers ??= {};
    entry.enabledMcpjsonServers ??= [];
    entry.disabledMcpjsonServers ??= [];
  }
  writeFileSync(claudeJsonPath, JSON.stringify(json, null, 2) + '\n');
}

/** First run: no onboarding done and no theme chosen, so Claude Code opens with its onboarding. */
function undoOnboarding(claudeJsonPath: string, home: string): void {
  const json = JSON.parse(readFileSync(claudeJsonPath, 'utf8')) as Record<string, unknown>;
  delete json.hasCompletedOnboarding;
  delete json.lastOnboardingVersion;
  writeFileSync(claudeJsonPath, JSON.stringify(json, null, 2) + '\n');
  const settingsPath = join(home, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
  delete settings.theme;
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2) + '\n');
}

async function runOne(version: string, bin: string, backend: 'tmux' | 'pty', scenario: Scenario, fake: FakeAnthropic): Promise<void> {
  const cols = scenario.setup.cols ?? 120;
  const rows = scenario.setup.rows ?? 40;
  const run = await prepareClaudeRun({ baseUrl: fake.url, renderer: 'fullscreen', trusted: scenario.setup.trusted ?? true, manualPermissions: true });
  oldVersionProjectDefaults(run.claudeJsonPath);
  if (scenario.setup.onboarding) undoOnboarding(run.claudeJsonPath, run.home);
  const env = { ...run.env, ...scenario.setup.env };
  const mcpConfig = join(run.root, 'mcp.json');
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { kh: { type: 'stdio', command: process.execPath, args: [join(ROOT, 'tests', 'corpus', 'mcp-kh-server.mjs')] } } }));
  const argv = [bin, ...(scenario.setup.args?.({ mcpConfig }) ?? [])];
  let pane: CapturePane | undefined;
  try {
    pane = backend === 'tmux'
      ? await launchInTmux({ dir: run.root, cwd: run.worktree, env, argv, cols, rows })
      : launchInPty({ cwd: run.worktree, env, argv, cols, rows });
    fake.reset();
    const expected = await scenario.drive(pane, fake).catch((err: unknown) => {
      // what the fake was asked and answered: a reply taken by another request shows here
      const asked = fake.received.filter((r) => r.kind !== undefined)
        .map((r) => `${r.kind}:${r.reply?.kind ?? '?'}${r.reply?.kind === 'tool_use' ? `(${r.reply.name})` : ''} ${JSON.stringify((r.summary?.lastPromptText ?? '').slice(0, 40))}`);
      throw withRequests(err, asked);
    });
    await writeFixture(pane, join(CORPUS_DIR, version), run.root, { version, backend, cols, rows, scenario: scenario.name, expected });
    console.error(`ok   ${version} ${backend} ${scenario.name} → ${expected.state}`);
  } finally {
    await pane?.kill();
    run.cleanup();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { claude: { type: 'string' }, agent: { type: 'string', default: 'claude' }, version: { type: 'string' }, backend: { type: 'string', default: 'both' }, only: { type: 'string' } },
  });
  if (values.agent === 'gemini') return captureOther(values.version, values.backend, values.only, captureGemini);
  if (values.agent === 'opencode') return captureOther(values.version, values.backend, values.only, captureOpencode);
  if (values.agent === 'qwen') return captureOther(values.version, values.backend, values.only, captureQwen);
  if (values.agent === 'codex') {
    if (values.version === undefined || !/^\d+\.\d+\.\d+$/.test(values.version)) {
      console.error('usage: npm run capture -- --agent codex --version <version> [--backend tmux|pty|both] [--only scenario,…]');
      process.exit(2);
    }
    const backends = values.backend === 'both' ? (['tmux', 'pty'] as const) : [values.backend as 'tmux' | 'pty'];
    if ((await captureCodex(values.version, backends, values.only?.split(','))) > 0) process.exitCode = 1;
    return;
  }
  const version = values.claude ?? values.version;
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) {
    console.error('usage: npm run capture -- --claude <version> [--backend tmux|pty|both] [--only scenario,…]  (e.g. --claude 2.1.50)');
    process.exit(2);
  }
  const backends = values.backend === 'both' ? (['tmux', 'pty'] as const) : [values.backend as 'tmux' | 'pty'];
  if (!backends.every((b) => b === 'tmux' || b === 'pty')) {
    console.error(`--backend ${values.backend}: use tmux, pty or both`);
    process.exit(2);
  }
  const only = values.only?.split(',');
  const bin = binaryFor(version);
  const fake = await startFakeAnthropic({ suggestion: null, slowWordDelayMs: 700, slowWordCount: 40 });
  let failed = 0;
  try {
    for (const scenario of [...SCENARIOS, ...ISSUE_21_SCENARIOS]) {
      if (only && !only.includes(scenario.name)) continue;
      for (const backend of backends) {
        if (scenario.backends && !scenario.backends.includes(backend)) continue;
        try {
          await runOne(version, bin, backend, scenario, fake);
        } catch (err) {
          if (err instanceof ScenarioSkipped) {
            console.error(`skip ${version} ${backend} ${scenario.name}: ${err.message}`);
            continue;
          }
          failed++;
          console.error(`FAIL ${version} ${backend} ${scenario.name}: ${(err as Error).message.slice(0, 3000)}`);
        }
      }
    }
  } finally {
    await fake.close();
  }
  if (failed > 0) process.exitCode = 1;
}

/** Another agent's corpus: the same flags, its own scenarios and fake API. */
async function captureOther(version: string | undefined, backend: string | undefined, only: string | undefined, capture: (v: string, b: readonly ('tmux' | 'pty')[], o?: readonly string[]) => Promise<number>): Promise<void> {
  const backends = backend === 'both' || backend === undefined ? (['tmux', 'pty'] as const) : [backend];
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version) || !backends.every((b) => b === 'tmux' || b === 'pty')) {
    console.error('usage: npm run capture -- --agent <agent> --version <version> [--backend tmux|pty|both] [--only scenario,…]');
    process.exit(2);
  }
  if ((await capture(version, backends as readonly ('tmux' | 'pty')[], only?.split(','))) > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
