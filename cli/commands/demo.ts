/**
 * `hand demo`: the quick start's main job. A throwaway git repository, three mock workers
 * (one finishes with a report, one stops on a question, one stalls), the fleet shown live,
 * then where everything is and how to clean up. Runs against its own state directory so a
 * person's real fleet is never touched.
 */
import type { Command } from 'commander';
import type { CommandContext } from './context.ts';
import { probeSandbox } from '../../io/sandbox/availability.ts';
import { definedOnly } from '../hand-ops.ts';
import { mkdtempSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile, execFileSync } from 'node:child_process';
import { resolveHome } from '../../contract/home.ts';
import { ensureHome } from '../../io/fs/ensure-home.ts';
import { reportPathOf } from '../../io/brief/worker-layout.ts';
import { call } from '../client.ts';
import type { Condition } from '../../contract/vocabulary.ts';
import { formatDuration, parseDuration } from '../durations.ts';
import { cliEnv, cliOut, setExitCode } from '../io.ts';

interface Row {
  id: string;
  stage: string;
  condition: Condition;
  state: string;
  blockedReason: string | null;
  reportExists: boolean;
  lastActivity: string;
}

const WORKERS = [
  { id: 'finisher', brief: 'Write a short summary of this repository.\n\nMODE:report\n', goal: 'settled', stall: '20m' },
  { id: 'asker', brief: 'Set up persistence for the project. Ask which database to use.\n\nMODE:ask\n', goal: 'blocked', stall: '20m' },
  { id: 'staller', brief: 'Run the long migration.\n\nMODE:hang\n', goal: 'stalled', stall: '6s' },
] as const;

function git(cwd: string, args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...cliEnv(), GIT_AUTHOR_NAME: 'demo', GIT_AUTHOR_EMAIL: 'demo@example.invalid', GIT_COMMITTER_NAME: 'demo', GIT_COMMITTER_EMAIL: 'demo@example.invalid' } });
}

/** The goal's condition (from `hand status`); settled also waits for the report file. */
function reached(row: Row, goal: 'settled' | 'blocked' | 'stalled'): boolean {
  if (goal === 'settled') return row.reportExists && (row.condition === 'settled' || row.condition === 'checking');
  return row.condition === goal;
}

export async function runDemo(opts: { home?: string; json?: boolean; keep?: boolean }): Promise<void> {
  const out = (s: string) => {
    if (!opts.json) cliOut().write(`${s}\n`);
  };
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kingshand-demo-')));
  const repo = join(root, 'repo');
  const home = opts.home ? resolveHome(opts.home) : join(root, 'state');
  const paths = ensureHome(home);
  execFileSync('mkdir', ['-p', repo]);
  git(repo, ['init', '-q', '-b', 'main']);
  writeFileSync(join(repo, 'README.md'), '# demo project\n\nA throwaway repository made by `hand demo`.\n');
  git(repo, ['add', 'README.md']);
  git(repo, ['commit', '-q', '-m', 'Initial commit']);
  out(`kingshand demo · repository ${repo}`);
  out(`state directory ${home}`);

  // The workers get a HOME of their own: the demo never edits the person's ~/.claude.json.
  const agentHome = join(root, 'agent-home');
  execFileSync('mkdir', ['-p', agentHome]);
  writeFileSync(join(agentHome, '.claude.json'), `${JSON.stringify({ hasCompletedOnboarding: true }, null, 2)}\n`);
  const env = { ...definedOnly(cliEnv()), HOME: agentHome };

  // yolo: the demo shows workers at work, so its throwaway project skips the approval gates
  // (a real project waits at brief approval: hand approve <id>).
  // Posture off runs every worker in kingshand's sandbox; where it cannot be built here the demo's
  // mock workers (which run no command) run under edits, and the person is told why and the fix.
  const sandbox = probeSandbox(cliEnv());
  await call(paths, 'annex', { repo, name: 'demo', posture: 'local-only', yolo: true, ...(sandbox.ok ? {} : { permissions: 'edits' as const }) });
  out('project demo annexed with yolo: briefs are dispatched without waiting at the approval gate');
  if (sandbox.ok) out("workers run in kingshand's sandbox (posture off): they reach nothing of yours but their worktree");
  else out(`kingshand's sandbox cannot be built here (${sandbox.reason}); the demo's workers run under posture edits. To run real workers unattended: ${sandbox.fix}`);
  for (const w of WORKERS) {
    const brief = join(root, `${w.id}-brief.md`);
    writeFileSync(brief, `# Brief: ${w.id}\n\n## Read first\n\nNothing else to read.\n\n## Task\n\n${w.brief}`);
    const stallMs = parseDuration(w.stall, '--stall');
    await call(paths, 'dispatch', { id: w.id, repo, brief, readPaths: [], agent: 'mock', backend: 'tmux', stallMs, env });
    out(`dispatched ${w.id.padEnd(9)} → expect ${w.goal}`);
  }

  const started = Date.now();
  const latest = new Map<string, Row>();
  const line = (r: Row) =>
    `${formatDuration(Date.now() - started).padStart(6)}  ${r.id.padEnd(9)} ${r.stage.padEnd(18)} ${r.state}${r.blockedReason ? ` (${r.blockedReason})` : ''}${r.reportExists ? ' · report written' : ''}`;
  const aborter = new AbortController();
  const allReached = () => WORKERS.every((w) => latest.has(w.id) && reached(latest.get(w.id)!, w.goal));
  await call(paths, 'watch', { timeoutMs: 60_000 }, {
    onProgress: (p) => {
      if ('need' in p) return; // a needs-you event: this watch does not ask for them
      const r = p;
      const prev = latest.get(r.id);
      latest.set(r.id, r);
      if (!prev || prev.stage !== r.stage || prev.state !== r.state || prev.reportExists !== r.reportExists) out(line(r));
      if (allReached()) aborter.abort();
    },
    signal: aborter.signal,
  }).catch((err: unknown) => {
    if (!aborter.signal.aborted) throw err;
  });

  const final = await call(paths, 'status', {});
  const ok = WORKERS.every((w) => reached(final.find((r) => r.id === w.id) ?? { id: w.id, stage: '', condition: 'busy', state: 'unknown', blockedReason: null, reportExists: false, lastActivity: '' }, w.goal));
  out('');
  out(ok ? `all three workers reached their expected state in ${formatDuration(Date.now() - started)}` : 'not every worker reached its expected state within 60s; see `hand status` and `hand logs`');
  if (!opts.keep) {
    const stopping = Date.now();
    await Promise.all(WORKERS.map((w) => call(paths, 'stop', { id: w.id, timeoutMs: 15_000 }).catch(() => undefined)));
    await call(paths, 'shutdown', {}, { autostart: false }).catch(() => undefined);
    // The demo's tmux server is private to its state directory: nothing else lives there.
    await new Promise<void>((resolve) => execFile('tmux', ['-S', paths.tmuxSocket, 'kill-server'], () => resolve()));
    out(`stopped the workers (/exit) in ${formatDuration(Date.now() - stopping)}`);
  }
  const flag = `--home ${home}`;
  const summary = {
    ok, repo, home, database: paths.db, log: paths.log,
    worktrees: WORKERS.map((w) => join(repo, '.claude', 'worktrees', w.id)),
    reports: WORKERS.map((w) => reportPathOf(join(paths.workers, w.id))),
    cleanup: opts.keep ? [`hand ${flag} stop <id>  (each worker)`, `hand ${flag} daemon stop`, `rm -rf ${root}`] : [`rm -rf ${root}`],
    workers: final,
  };
  if (opts.json) cliOut().write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    out(`worktrees  ${repo}/.claude/worktrees/{finisher,asker,staller}`);
    out(`reports    ${reportPathOf(join(paths.workers, '<id>'))}`);
    out(`database   ${paths.db}`);
    out(`log        ${paths.log}   (hand ${flag} logs)`);
    out(opts.keep ? `the daemon is still running; look around with: hand ${flag} status` : 'workers stopped and daemon shut down');
    out(`clean up   ${summary.cleanup.join(' && ')}`);
  }
  if (!ok) setExitCode(1);
}

/** `hand demo [--keep]`, registered here: the router loads this file only for `demo` and for help. */
export function registerDemo(program: Command, ctx: CommandContext): void {
  program
    .command('demo')
    .description('make a throwaway repository, dispatch three mock workers and show the fleet live')
    .option('--keep', 'leave the demo daemon running at the end')
    .action(async (o: { keep?: boolean }, cmd: Command) => {
      // Not ctx.paths(cmd): without --home the demo's state lives in its own throwaway directory.
      const { home } = cmd.optsWithGlobals() as { home?: string };
      await runDemo({ home, json: ctx.json(cmd), keep: o.keep });
    });
}
