/**
 * `hand`: routing only. Each command parses and validates its flags, asks the daemon,
 * and prints text or --json. Typed errors become exit codes here and nowhere else.
 */
import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KINGSHAND_ROOT } from '../io/root.ts';
import { ensureHome, resolveHome, type HomePaths } from './home.ts';
import { call } from './client.ts';
import { emit, reportError, table } from './output.ts';
import { parseDuration } from './durations.ts';
import { showLogs } from './commands/logs.ts';
import { UsageError } from '../io/errors.ts';
import { parseOneKey } from '../actors/daemon/handlers.ts';

const pkg = JSON.parse(readFileSync(join(KINGSHAND_ROOT, 'package.json'), 'utf8')) as { version: string };
const program = new Command();
let jsonWanted = false;

function paths(cmd: Command): HomePaths {
  const opts = cmd.optsWithGlobals() as { home?: string };
  return ensureHome(resolveHome(opts.home));
}
function json(cmd: Command): boolean {
  return Boolean((cmd.optsWithGlobals() as { json?: boolean }).json);
}

const STATUS_COLUMNS = ['id', 'project', 'stage', 'state', 'blockedReason', 'promptBox', 'readable', 'live', 'backend', 'reportExists', 'lastActivity'];

program
  .name('hand')
  .description('Supervise AI coding agents: dispatch workers into git worktrees and terminals, watch their screens, bring back what needs a decision.')
  .version(pkg.version, '-V, --version')
  .option('--home <dir>', 'state directory (default $HAND_HOME or ~/.local/state/kingshand)')
  .option('--json', 'print JSON instead of text')
  .showHelpAfterError('(run with --help for usage)')
  .addHelpText(
    'after',
    `
Examples:
  hand annex ~/src/shop                         register a repository
  hand dispatch fix-login --repo ~/src/shop --brief brief.md
  hand wait fix-login --until blocked           wakes the moment it needs you
  hand read fix-login                           its screen
  hand keys fix-login down                      one key per call
  hand status --json                            the fleet, for scripts

Exit codes: 0 ok, 1 refused or failed, 2 bad usage, 3 daemon unreachable.`,
  )
  .exitOverride();

const daemon = program.command('daemon').description('start, stop or inspect the background daemon that hosts the fleet');
daemon
  .command('start')
  .description('start the daemon for this state directory (no-op when it runs)')
  .action(async (_o, cmd: Command) => {
    const r = await call<Record<string, unknown>>(paths(cmd), 'ping');
    emit(json(cmd), r, () => `daemon running: pid ${r.pid}, home ${r.home}`);
  });
daemon
  .command('stop')
  .description('stop the daemon; tmux and herdr workers keep running and are re-attached at the next start')
  .action(async (_o, cmd: Command) => {
    const r = await call<Record<string, unknown>>(paths(cmd), 'shutdown', {}, { autostart: false });
    emit(json(cmd), r, () => `daemon ${r.pid} stopping`);
  });
daemon
  .command('status')
  .description('is the daemon running? pid, home, socket, uptime, workers')
  .action(async (_o, cmd: Command) => {
    const r = await call<Record<string, unknown>>(paths(cmd), 'ping', {}, { autostart: false });
    emit(json(cmd), { running: true, ...r }, () => `running: pid ${r.pid} · up ${Math.round(Number(r.uptimeMs) / 1000)}s · ${r.workers} workers · ${r.socket}`);
  });
daemon
  .command('restore-db')
  .description('put the newest database backup back (when the daemon refuses to start on a lost or damaged database)')
  .option('--from <file>', 'restore this backup instead of the newest in <home>/backups')
  .action(async (o: { from?: string }, cmd: Command) => {
    const { restoreDb, restoreDbText } = await import('./commands/restore-db.ts');
    const r = restoreDb(paths(cmd), o.from);
    emit(json(cmd), r, () => restoreDbText(r));
  });
daemon
  .command('run', { hidden: true })
  .description('run the daemon in the foreground (what `daemon start` launches)')
  .action(async (_o, cmd: Command) => {
    const { runDaemon } = await import('../actors/daemon/main.ts');
    await runDaemon(paths(cmd));
  });

program
  .command('logs')
  .description("show the daemon's log readably")
  .option('-f, --follow', 'keep printing new lines')
  .option('-n, --lines <n>', 'only the last n lines', (v) => Number.parseInt(v, 10))
  .action(async (o: { follow?: boolean; lines?: number }, cmd: Command) => {
    await showLogs(paths(cmd).log, { ...o, json: json(cmd) }, (s) => process.stdout.write(`${s}\n`));
  });

program
  .command('annex')
  .description('register a git repository so workers can be dispatched into it')
  .argument('<repo>', 'path inside the repository')
  .option('--name <name>', 'project name (default: the folder name)')
  .addOption(new Option('--posture <posture>', 'delivery posture').choices(['local-only', 'direct-PR', 'no-mistakes', 'no-mistakes-prod-only']).default('local-only'))
  .option('--yolo', 'skip the approval gates for this project', false)
  .action(async (repo: string, o: { name?: string; posture: string; yolo: boolean }, cmd: Command) => {
    const r = await call<Record<string, unknown>>(paths(cmd), 'annex', { repo: resolve(repo), name: o.name, posture: o.posture, yolo: o.yolo });
    emit(json(cmd), r, () => `${r.updated ? 'updated' : 'registered'} ${r.name} → ${r.repo} (${r.posture}${r.yolo ? ', yolo' : ''})`);
  });

program
  .command('projects')
  .description('list registered projects')
  .action(async (_o, cmd: Command) => {
    const r = await call<Record<string, unknown>[]>(paths(cmd), 'projects');
    emit(json(cmd), r, () => (r.length ? table(r, ['name', 'repo', 'posture', 'yolo']) : 'no projects registered (hand annex <repo>)'));
  });

program
  .command('dispatch')
  .description('start a worker on a brief, in its own worktree and terminal')
  .argument('<id>', 'worker id (letters, digits, - and _)')
  .requiredOption('--repo <path>', 'registered repository')
  .requiredOption('--brief <file>', 'the brief the worker reads first')
  .option('--read-path <file>', 'a file the worker must read (repeatable)', (v: string, acc: string[]) => [...acc, resolve(v)], [] as string[])
  .addOption(new Option('--agent <agent>', 'agent to run').choices(['claude', 'mock']).default('claude'))
  .addOption(new Option('--backend <backend>', 'terminal host').choices(['tmux', 'pty', 'herdr']).default('tmux'))
  .option('--stall <duration>', 'report a stall after this long without change', '20m')
  .option('--env <KEY=VALUE>', 'set a variable in the worker (repeatable; wins over the defaults)', (v: string, acc: string[]) => [...acc, v], [] as string[])
  .action(async (id: string, o: { repo: string; brief: string; readPath: string[]; agent: string; backend: string; stall: string; env: string[] }, cmd: Command) => {
    const stallMs = parseDuration(o.stall, '--stall');
    const envAdd: Record<string, string> = {};
    for (const pair of o.env) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(pair);
      if (!m) throw new UsageError('bad-env', `--env ${JSON.stringify(pair)} is not KEY=VALUE. Example: --env CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION=1`, { value: pair });
      envAdd[m[1]!] = m[2]!;
    }
    const r = await call<Record<string, unknown>>(paths(cmd), 'dispatch', {
      id, repo: resolve(o.repo), brief: resolve(o.brief), readPaths: o.readPath, agent: o.agent, backend: o.backend, stallMs,
      // The worker runs with the environment of this call (API keys, base URLs, proxies live there).
      env: process.env,
      envAdd,
    });
    emit(json(cmd), r, () => [`dispatched ${r.id} (${r.agent} on ${r.backend})`, `  worktree ${r.worktree}`, `  branch   ${r.branch} from ${r.base}`, `  brief    ${r.briefPath}`, `  report   ${r.reportPath}`].join('\n'));
  });

program
  .command('status')
  .description('one row per worker: stage, screen state, prompt box, liveness, report')
  .argument('[id]', 'only this worker')
  .action(async (id: string | undefined, _o, cmd: Command) => {
    const r = await call<Record<string, unknown>[]>(paths(cmd), 'status', { id });
    // A worktree deleted outside kingshand is said under the table (too rare for a column).
    const missing = r.filter((row) => row.worktreeMissing === true).map((row) => `${String(row.id)}: its worktree is missing (deleted outside kingshand?)`);
    emit(json(cmd), r, () => (r.length ? [table(r, STATUS_COLUMNS), ...missing].join('\n') : 'no workers (hand dispatch … starts one)'));
  });

program
  .command('wait')
  .description('block until the worker settles (turn ended and its report looked at: done, parked or settled), blocks, stalls or exits (an event, not a poll)')
  .argument('<id>', 'worker id')
  .addOption(new Option('--until <condition>', 'condition that counts as success').choices(['settled', 'blocked', 'stalled', 'exited', 'any']).default('any'))
  .option('--timeout <duration>', 'give up after this long', '30m')
  .action(async (id: string, o: { until: string; timeout: string }, cmd: Command) => {
    const timeoutMs = parseDuration(o.timeout, '--timeout');
    const live = process.stderr.isTTY && !json(cmd);
    const started = Date.now();
    const r = await call<Record<string, unknown>>(paths(cmd), 'wait', { id, until: o.until, timeoutMs }, {
      onProgress: (p) => {
        if (!live) return;
        const v = p as { stage: string; state: string; lastActivity: string };
        const line = `⧗ ${id} ${v.stage} (${v.state}) ${Math.round((Date.now() - started) / 1000)}s · ${v.lastActivity}`;
        process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns || 100) - 1)}`);
      },
    });
    if (live) process.stderr.write('\r\x1b[2K');
    emit(json(cmd), r, () => `${id}: ${r.reason}${r.met ? '' : ` (waited for ${o.until})`} · state ${r.state}${r.blockedReason ? ` (${r.blockedReason})` : ''} · box ${JSON.stringify(r.promptBox)} · ${r.readable ? 'readable' : 'UNREADABLE'}\n  ${r.lastActivity}`);
    process.exitCode = r.met ? 0 : 1;
  });

program
  .command('read')
  .description("print the worker's visible screen (or scrollback, for people only)")
  .argument('<id>', 'worker id')
  .option('--scrollback <lines>', 'include this many lines of history', (v) => Number.parseInt(v, 10))
  .action(async (id: string, o: { scrollback?: number }, cmd: Command) => {
    if (o.scrollback !== undefined && !(o.scrollback > 0)) throw new UsageError('bad-scrollback', '--scrollback takes a positive number of lines, e.g. --scrollback 200.');
    const r = await call<{ text: string }>(paths(cmd), 'read', { id, scrollback: o.scrollback });
    // Blank rows below the last line of output say nothing to a person.
    emit(json(cmd), r, () => r.text.replace(/\s+$/, ''));
  });

program
  .command('send')
  .description('type a line into the worker and press Enter (refuses when its input box holds text)')
  .argument('<id>', 'worker id')
  .argument('<text...>', 'the text to send')
  .option('--allow-non-empty-box', 'send even though the input box already holds text')
  .action(async (id: string, words: string[], o: { allowNonEmptyBox?: boolean }, cmd: Command) => {
    const r = await call<Record<string, unknown>>(paths(cmd), 'send', { id, text: words.join(' '), allowNonEmptyBox: Boolean(o.allowNonEmptyBox) });
    emit(json(cmd), r, () => `sent to ${id} · now ${r.stage} (${r.state})`);
  });

program
  .command('keys')
  .description('press exactly one key in the worker (enter, escape, up, down, left, right, tab, space, backspace, ctrl-c, or one character)')
  .argument('<id>', 'worker id')
  .argument('<key>', 'one key')
  .allowExcessArguments(true)
  .option('--allow-non-empty-box', 'allow Enter even though the input box holds text')
  .action(async (id: string, key: string, o: { allowNonEmptyBox?: boolean }, cmd: Command) => {
    const extra = cmd.args.slice(2);
    if (extra.length > 0) {
      throw new UsageError('one-key-per-call', `hand keys takes exactly one key per call (got ${[key, ...extra].join(' ')}). Call it once per key and read the screen between (hand read ${id}).`);
    }
    parseOneKey(key); // bad usage is refused here, before any daemon is started
    const r = await call<Record<string, unknown>>(paths(cmd), 'keys', { id, key, allowNonEmptyBox: Boolean(o.allowNonEmptyBox) });
    emit(json(cmd), r, () => `${id}: pressed ${r.key} · now ${r.stage} (${r.state})`);
  });

program
  .command('stop')
  .description('end the worker cleanly: Escape if a menu is up or a turn runs, then /exit (never a kill)')
  .argument('<id>', 'worker id')
  .option('--timeout <duration>', 'how long to wait for the agent to exit', '30s')
  .action(async (id: string, o: { timeout: string }, cmd: Command) => {
    const timeoutMs = parseDuration(o.timeout, '--timeout');
    const r = await call<Record<string, unknown>>(paths(cmd), 'stop', { id, timeoutMs });
    emit(json(cmd), r, () => `${id}: ${r.stage} · exit ${r.exitCode ?? 'unknown'} · pane ${r.paneReusable ? 'reusable' : 'not reusable'}`);
  });

program
  .command('land')
  .description('gather landing evidence for a finished worker and open its landing gate')
  .argument('<id>', 'worker id')
  .action(async (id: string, _o, cmd: Command) => {
    const r = await call<Record<string, any>>(paths(cmd), 'land', { id });
    emit(json(cmd), r, () => {
      const e = r.evidence ?? {};
      const head = r.gate === 'skipped-yolo' ? `${id}: landed without a gate (yolo project)` : `${id}: landing gate open · approve with hand approve ${id}, or hand reject ${id} --reason …`;
      return [head, `  ${e.branch} onto ${e.base} · ${e.verdict}`, ...(String(e.diffStat ?? '').trim() ? [String(e.diffStat).trimEnd()] : []), ...(String(e.log ?? '').trim() ? [String(e.log).trimEnd()] : [])].join('\n');
    });
  });

program
  .command('approve')
  .description('approve the open gate of a worker (lands it per the project posture)')
  .argument('<id>', 'worker id')
  .action(async (id: string, _o, cmd: Command) => {
    const r = await call<Record<string, any>>(paths(cmd), 'approve', { id });
    emit(json(cmd), r, () => `${id}: approved · now ${r.stage ?? r.gate ?? 'running'}${r.landed ? ` · landed ${JSON.stringify(r.landed)}` : ''}`);
  });

program
  .command('reject')
  .description('reject the open gate of a worker, saying why')
  .argument('<id>', 'worker id')
  .requiredOption('--reason <text>', 'why it is rejected (told to the worker and kept)')
  .action(async (id: string, o: { reason: string }, cmd: Command) => {
    const r = await call<Record<string, any>>(paths(cmd), 'reject', { id, reason: o.reason });
    emit(json(cmd), r, () => `${id}: rejected (${o.reason})`);
  });

program
  .command('landings')
  .description('list open landing gates and what each waits for')
  .action(async (_o, cmd: Command) => {
    const r = await call<Record<string, unknown>[]>(paths(cmd), 'landings');
    emit(json(cmd), r, () => (r.length ? table(r, ['id', 'posture', 'waitingFor']) : 'no open landing gates'));
  });

program
  .command('diagram')
  .description('print the state machines as Mermaid, DOT or JSON')
  .argument('[which]', 'worker, fleet or all', 'all')
  .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot', 'json']).default('mermaid'))
  .action(async (which: string, o: { format: 'mermaid' | 'dot' | 'json' }) => {
    if (!['worker', 'fleet', 'all'].includes(which)) throw new UsageError('bad-diagram', `no machine called ${JSON.stringify(which)}. Use worker, fleet or all.`);
    const { renderDiagram } = await import('./commands/diagram.ts');
    process.stdout.write(`${renderDiagram(which as 'worker' | 'fleet' | 'all', o.format)}\n`);
  });

const screen = program.command('screen').description('screen analysis tools');
screen
  .command('inspect')
  .description('analyse a screen capture file (plain or ANSI) as the supervisor would')
  .argument('<file>', 'capture file (tmux capture-pane -p [-e])')
  .option('--ansi', 'the file holds SGR escapes (default: detected)')
  .option('--agent <agent>', 'agent profile', 'claude')
  .action(async (file: string, o: { ansi?: boolean; agent: string }, cmd: Command) => {
    const { screenInspect, formatScreenInspect } = await import('./commands/screen-inspect.ts');
    const r = await screenInspect(file, { ansi: o.ansi, agent: o.agent });
    emit(json(cmd), r, () => formatScreenInspect(r));
  });

program
  .command('mock-agent')
  .description('run the scripted mock agent (renders Claude Code screens; for tests and the demo)')
  .allowUnknownOption(true)
  .helpOption(false)
  .argument('[args...]')
  .action(async (args: string[]) => {
    const { runMockAgentCli } = await import('./commands/mock-agent-entry.ts');
    await runMockAgentCli(args);
  });

program
  .command('doctor')
  .description('check node, git, tmux, agent binaries and the state directory; print the fix for each problem')
  .action(async (_o, cmd: Command) => {
    const { runDoctor, formatDoctor } = await import('./commands/doctor.ts');
    const opts = cmd.optsWithGlobals() as { home?: string };
    const r = await runDoctor(resolveHome(opts.home));
    emit(json(cmd), r, () => formatDoctor(r));
    process.exitCode = r.ok ? 0 : 1;
  });

program
  .command('demo')
  .description('make a throwaway repository, dispatch three mock workers and show the fleet live')
  .option('--keep', 'leave the demo daemon running at the end')
  .action(async (o: { keep?: boolean }, cmd: Command) => {
    const { runDemo } = await import('./commands/demo.ts');
    const opts = cmd.optsWithGlobals() as { home?: string; json?: boolean };
    await runDemo({ home: opts.home, json: opts.json, keep: o.keep });
  });

async function main(argv: string[]): Promise<number> {
  jsonWanted = argv.includes('--json');
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return 2;
    }
    return reportError(err, jsonWanted);
  }
}

const code = await main(process.argv);
// `daemon run` keeps the process alive through its server; everything else exits now.
if (!(process.argv[2] === 'daemon' && process.argv[3] === 'run')) process.exit(code);
