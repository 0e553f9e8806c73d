/**
 * The `hand` program: routing only. Each command parses and validates its flags, asks the daemon,
 * and prints text or --json. Typed errors become exit codes here and nowhere else. A run's
 * streams, environment and exit code come from its CliIo (cli/io.ts): the binary (cli/main.ts)
 * passes the process's own, a test its own, so the same program runs in either.
 */
import { quoteWorker } from '../contract/worker-words.ts';
import { Command, CommanderError, Option } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KINGSHAND_ROOT } from '../io/root.ts';
import { resolveHome, type HomePaths } from '../contract/home.ts';
import { ensureHome, existingHome } from '../io/fs/ensure-home.ts';
import { call } from './client.ts';
import { emit, printText, reportError, table } from './output.ts';
import { approveText } from './commands/approve-text.ts';
import { parseDuration } from './durations.ts';
import { lineCount, pathArg } from './arguments.ts';
import { daemonStatus, stopDaemon } from './daemon-control.ts';
import { showLogs } from './commands/logs.ts';
import { UsageError } from '../contract/errors.ts';
import { AGENTS, BACKENDS, POSTURES } from '../contract/vocabulary.ts';
import { ops } from './hand-ops.ts';
import { registerHandCommands } from './commands/hand-commands.ts';
import { escapeControls } from '../io/text/escape-controls.ts';
import { registerWorkCommands } from './commands/work.ts';
import { registerWatch } from './commands/watch.ts';
import { cliEnv, cliErr, cliOut, setExitCode, withCliIo, type CliIo } from './io.ts';
import type { CommandContext } from './commands/context.ts';

const pkg = JSON.parse(readFileSync(join(KINGSHAND_ROOT, 'package.json'), 'utf8')) as { version: string };
function paths(cmd: Command): HomePaths {
  const opts = cmd.optsWithGlobals() as { home?: string };
  return ensureHome(resolveHome(opts.home, cliEnv()));
}
/** For commands that only reach the daemon (stop, status): a read-only or immutable home is fine. */
function daemonPaths(cmd: Command): HomePaths {
  const opts = cmd.optsWithGlobals() as { home?: string };
  return existingHome(resolveHome(opts.home, cliEnv()));
}
function json(cmd: Command): boolean {
  return Boolean((cmd.optsWithGlobals() as { json?: boolean }).json);
}
const ctx: CommandContext = { paths, daemonPaths, json };

const STATUS_COLUMNS = ['id', 'project', 'stage', 'state', 'blockedReason', 'promptBox', 'readable', 'live', 'backend', 'permissions', 'reportExists', 'lastActivity'];

/** A fresh program per run: commander keeps parsed options on its commands. */
function buildProgram(): Command {
  const program = new Command();
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
    hand answer fix-login 2 --fingerprint <fp>    the person's choice in its dialog
    hand status --json                            the fleet, for scripts

  Exit codes: 0 ok, 1 refused or failed, 2 bad usage, 3 daemon unreachable.`,
    )
    // commander echoes bad arguments back: they too reach the terminal as text only
    .configureOutput({ writeOut: (t) => printText(cliOut(), t), writeErr: (t) => printText(cliErr(), t) })
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
    .description('stop the daemon; live tmux and herdr workers keep running (re-attached at the next start), and with none live the private tmux server stops too')
    .action(async (_o, cmd: Command) => {
      const r = await stopDaemon(daemonPaths(cmd));
      emit(json(cmd), r, () =>
        r.signalled
          ? `daemon ${r.pid} did not answer on its socket; sent ${r.signalled}, it stopped`
          : r.advice
            ? `daemon ${r.pid} stopping; ${r.advice}`
            : `daemon ${r.pid} stopping; no live workers, so its tmux server stops too`,
      );
    });
  daemon
    .command('status')
    .description('is the daemon running? pid, home, socket, uptime, workers')
    .action(async (_o, cmd: Command) => {
      const r = await daemonStatus(daemonPaths(cmd));
      emit(json(cmd), r, () => `running: pid ${r.pid} · up ${Math.round(Number(r.uptimeMs) / 1000)}s · ${r.workers} workers · ${r.socket}`);
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
    .option('-n, --lines <n>', 'only the last n lines', (v) => lineCount(v, '--lines'))
    .action(async (o: { follow?: boolean; lines?: number }, cmd: Command) => {
      await showLogs(paths(cmd).log, { ...o, json: json(cmd) }, (s) => printText(cliOut(), `${s}\n`));
    });

  program
    .command('annex')
    .description('register a git repository so workers can be dispatched into it')
    .argument('<repo>', 'path inside the repository')
    .option('--name <name>', 'project name (default: the folder name)')
    .addOption(new Option('--posture <posture>', 'delivery posture').choices(POSTURES).default('local-only'))
    .option('--yolo', 'skip the approval gates for this project', false)
    .addOption(new Option('--permissions <posture>', "workers' permission prompts: off (none; deny list applies), edits (edits go through, commands ask), ask (everything asks); default off").choices(['off', 'edits', 'ask']))
    .action(async (repo: string, o: { name?: string; posture: string; yolo: boolean; permissions?: string }, cmd: Command) => {
      const r = await ops.annex(paths(cmd), { repo, ...o });
      emit(json(cmd), r, () => `${r.updated ? 'updated' : 'registered'} ${r.name} → ${r.repo} (${r.posture}${r.yolo ? ', yolo' : ''}, permissions ${r.permissions})`);
    });

  const project = program.command('project').description('change a registered project');
  project
    .command('set')
    .description("change a project's settings (applies from each worker's next launch)")
    .argument('<name>', 'project name (hand projects lists them)')
    .addOption(new Option('--permissions <posture>', "workers' permission prompts: off, edits or ask").choices(['off', 'edits', 'ask']))
    .action(async (name: string, o: { permissions?: string }, cmd: Command) => {
      if (o.permissions === undefined) throw new UsageError('nothing-to-set', 'nothing to change: pass --permissions off|edits|ask.');
      const r = await call<Record<string, any>>(paths(cmd), 'projectSet', { name, permissions: o.permissions });
      emit(json(cmd), r, () =>
        [
          `${r.name}: ${r.changed ? `permissions ${r.previous} → ${r.permissions}` : `permissions already ${r.permissions}`} · ${r.describe}`,
          ...(r.running?.length && r.changed ? [`  ${r.running.length} running worker(s) keep ${r.previous} until relaunched: ${r.running.join(', ')}`] : []),
        ].join('\n'),
      );
    });

  program
    .command('projects')
    .description('list registered projects')
    .action(async (_o, cmd: Command) => {
      const r = await ops.projects(paths(cmd));
      emit(json(cmd), r, () => (r.length ? table(r, ['name', 'repo', 'posture', 'yolo', 'permissions']) : 'no projects registered (hand annex <repo>)'));
    });

  program
    .command('dispatch')
    .description('start a worker on a brief, in its own worktree and terminal')
    .argument('[id]', 'worker id (letters, digits, - and _; default: the --item id)')
    .option('--repo <path>', 'registered repository (default with --item: its project)')
    .option('--brief <file>', 'the brief the worker reads first (default with --item: its brief)')
    .option('--item <id>', 'the backlog item this worker takes (started now, done when it lands)')
    .option('--read-path <file>', 'a file the worker must read, copied into its folder (repeatable; never keys or credentials)', (v: string, acc: string[]) => [...acc, pathArg(v, '--read-path', '--read-path docs/spec.md')], [] as string[])
    .addOption(new Option('--agent <agent>', 'agent to run').choices(AGENTS).default('claude'))
    .addOption(new Option('--backend <backend>', 'terminal host').choices(BACKENDS).default('tmux'))
    .option('--stall <duration>', 'report a stall after this long without change', '20m')
    .option('--unclear <duration>', 'wake a person after the screen could not be read for this long', '30s')
    .option('--env <KEY=VALUE>', 'set a variable in the worker (repeatable; wins over the defaults)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--workspace <dir>', "the Hand workspace whose data/ index and standing files apply (default: HAND_WORKSPACE, else the one hand init recorded)")
    .addOption(new Option('--task-kind <kind>', 'no-mistakes-prod-only projects: internal (tooling, automation, process, release) ships direct-PR; product, mixed or uncertain go through the gate').choices(['internal', 'product', 'mixed', 'uncertain']))
    .action(async (id: string | undefined, o: { repo?: string; brief?: string; item?: string; readPath: string[]; agent: string; backend: string; stall: string; unclear: string; env: string[]; taskKind?: string; workspace?: string }, cmd: Command) => {
      const r = await ops.dispatch(paths(cmd), { id, repo: o.repo, brief: o.brief, item: o.item, readPaths: o.readPath, agent: o.agent, backend: o.backend, stall: o.stall, unclear: o.unclear, env: o.env, taskKind: o.taskKind, workspace: o.workspace });
      for (const w of (r.warnings as string[] | undefined) ?? []) cliErr().write(`hand: warning: ${escapeControls(w)}\n`);
      const copied = (r.copied as { source: string; copy: string }[] | undefined) ?? [];
      if (r.gated) {
        const head = (r.briefHead as string[]).map((l) => `    │ ${l}`);
        emit(json(cmd), r, () =>
          [
            `${r.id}: waits for your approval of its brief — nothing was created yet (no worktree, branch or terminal; only the brief directory)`,
            `  brief    ${r.briefPath}`,
            ...head,
            ...copied.map((c) => `  copied   ${c.source} → ${c.copy}`),
            `  approve: hand approve ${r.id}   ·   reject: hand reject ${r.id} --reason "…"`,
            `  then: ${r.agent} on ${r.backend}, permissions ${r.permissions}, worktree ${r.worktree} on ${r.branch} from ${r.base}`,
            ...(r.seeded ? [`  config   ${r.seeded.says}`] : []),
          ].join('\n'),
        );
        return;
      }
      const delivery = r.delivery as { ships: string; ci: { status: string; signal: string } | null } | null;
      const review = delivery ? [`  ships    ${delivery.ships}${delivery.ci ? ` · CI preflight ${delivery.ci.status} (${delivery.ci.signal})` : ''}`] : [];
      emit(json(cmd), r, () => [`dispatched ${r.id} (${r.agent} on ${r.backend}, permissions ${r.permissions})${r.item ? ` for item ${r.item}` : ''}`, ...review, `  worktree ${r.worktree}`, `  branch   ${r.branch} from ${r.base}`, `  brief    ${r.briefPath}`, `  report   ${r.reportPath}`, ...(r.seeded ? [`  config   ${r.seeded.says}`] : []), ...copied.map((c) => `  copied   ${c.source} → ${c.copy}`)].join('\n'));
    });

  program
    .command('status')
    .description('one row per worker: stage, screen state, prompt box, liveness, report')
    .argument('[id]', 'only this worker')
    .option('--work', 'with --json: an object with the workers plus backlog, decisions, away mode and notifications')
    .action(async (id: string | undefined, o: { work?: boolean }, cmd: Command) => {
      const r = await ops.status(paths(cmd), { id });
      const work = await call<Record<string, any>>(paths(cmd), 'work.summary');
      const { statusFooter } = await import('./commands/work.ts');
      // A worktree deleted outside kingshand is said under the table (too rare for a column).
      const missing = r.filter((row) => row.worktreeMissing === true).map((row) => `${String(row.id)}: its worktree is missing (deleted outside kingshand?)`);
      const { withWitnessText } = await import('./commands/witness-columns.ts');
      emit(json(cmd), o.work ? { workers: r, ...work } : r, () => `${r.length ? [table(withWitnessText(r), [...STATUS_COLUMNS, 'disputed', 'tokens', 'item']), ...missing].join('\n') : 'no workers (hand dispatch … starts one)'}\n${statusFooter(work)}`);
    });

  /** A blocked wait names the options and the call that answers them (the person's choice only). */
  const dialogLine = (id: string, d: any): string =>
    d?.options?.length ? `\n  options: ${d.options.map((o: any) => `${o.n}. ${o.label}`).join(' | ')}\n  answer with the person's choice: hand answer ${id} <n> --fingerprint ${d.fingerprint}` : '';

  program
    .command('wait')
    .description('block until the worker settles (turn ended and its report looked at: done, parked or settled), blocks, stalls or exits (an event, not a poll)')
    .argument('<id>', 'worker id')
    .addOption(new Option('--until <condition>', 'condition that counts as success').choices(['settled', 'blocked', 'stalled', 'exited', 'any']).default('any'))
    .option('--timeout <duration>', 'give up after this long', '30m')
    .action(async (id: string, o: { until: string; timeout: string }, cmd: Command) => {
      const live = cliErr().isTTY && !json(cmd);
      const started = Date.now();
      const r = await ops.wait(paths(cmd), { id, until: o.until, timeout: o.timeout }, (p) => {
        if (!live) return;
        const v = p as { stage: string; state: string; lastActivity: string };
        const line = `⧗ ${id} ${v.stage} (${v.state}) ${Math.round((Date.now() - started) / 1000)}s · ${v.lastActivity}`;
        cliErr().write(`\r\x1b[2K${escapeControls(line).slice(0, (cliErr().columns || 100) - 1)}`);
      });
      if (live) cliErr().write('\r\x1b[2K');
      emit(json(cmd), r, () => `${id}: ${r.reason}${r.met ? '' : ` (waited for ${o.until})`} · state ${r.state}${r.blockedReason ? ` (${r.blockedReason})` : ''} · box ${JSON.stringify(r.promptBox)} · ${r.readable ? 'readable' : 'UNREADABLE'}\n  ${r.question ? `asks — ${quoteWorker(id, r.question)}` : r.lastActivity}${dialogLine(id, r.dialog)}`);
      setExitCode(r.met ? 0 : 1);
    });

  program
    .command('read')
    .description("print the worker's visible screen (or scrollback, for people only)")
    .argument('<id>', 'worker id')
    .option('--scrollback <lines>', 'include this many lines of history', (v) => Number.parseInt(v, 10))
    .action(async (id: string, o: { scrollback?: number }, cmd: Command) => {
      const r = await ops.read(paths(cmd), { id, scrollback: o.scrollback });
      // Blank rows below the last line of output say nothing to a person.
      emit(json(cmd), r, () => r.text.replace(/\s+$/, ''));
    });

  program
    .command('send')
    .description('type a line into the worker and press Enter (refuses when its input box holds text or a dialog waits: answer that with hand answer or hand keys)')
    .argument('<id>', 'worker id')
    .argument('<text...>', 'the text to send')
    .option('--allow-non-empty-box', 'send even though the input box already holds text')
    .action(async (id: string, words: string[], o: { allowNonEmptyBox?: boolean }, cmd: Command) => {
      const r = await ops.send(paths(cmd), { id, text: words.join(' '), allowNonEmptyBox: o.allowNonEmptyBox });
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
      const r = await ops.keys(paths(cmd), { id, key, allowNonEmptyBox: o.allowNonEmptyBox });
      emit(json(cmd), r, () => `${id}: pressed ${r.key} · now ${r.stage} (${r.state})`);
    });

  program
    .command('answer')
    .description("select the person's choice in the dialog on the worker's screen: keys one per call, the screen read back between (refuses if the dialog changed)")
    .argument('<id>', 'worker id')
    .argument('<option>', 'the option number the dialog shows')
    .option('--fingerprint <fp>', 'dialog.fingerprint from hand read/status/wait --json: the dialog the person answered')
    .action(async (id: string, option: string, o: { fingerprint?: string }, cmd: Command) => {
      const r = await ops.answer(paths(cmd), { id, option, fingerprint: o.fingerprint });
      emit(json(cmd), r, () => String(r.message));
    });

  program
    .command('stop')
    .description('end the worker cleanly: Escape if a menu is up or a turn runs, then /exit (never a kill)')
    .argument('<id>', 'worker id')
    .option('--timeout <duration>', 'how long to wait for the agent to exit', '30s')
    .option('--force', 'stop it even though it is parked on an open decision')
    .action(async (id: string, o: { timeout: string; force?: boolean }, cmd: Command) => {
      const r = await ops.stop(paths(cmd), { id, timeout: o.timeout, force: o.force });
      emit(json(cmd), r, () => `${id}: ${r.stage} · exit ${r.exitCode ?? 'unknown'} · pane ${r.paneReusable ? 'reusable' : 'not reusable'}`);
    });

  program
    .command('relaunch')
    .description('stop a wedged worker (by /exit) and start a fresh session in the same worktree and branch, briefed with a progress note')
    .argument('<id>', 'worker id')
    .option('--note <text|file>', 'what the new session should know (a file path reads the file)')
    .option('--force', 'relaunch even while the worker is working')
    .option('--stall <duration>', 'report a stall after this long without change', '20m')
    .action(async (id: string, o: { note?: string; force?: boolean; stall: string }, cmd: Command) => {
      const stallMs = parseDuration(o.stall, '--stall');
      let note = o.note;
      if (note !== undefined && existsSync(note) && statSync(note).isFile()) note = readFileSync(note, 'utf8');
      const r = await call<Record<string, any>>(paths(cmd), 'relaunch', { id, note, force: Boolean(o.force), stallMs, env: cliEnv() });
      emit(json(cmd), r, () =>
        [
          `${id}: relaunched (was ${r.stoppedFrom}) · same worktree ${r.worktree} on ${r.branch}`,
          `  progress note ${r.progressNotePath}${r.previousReport !== null ? ' (with the previous report)' : ''}`,
        ].join('\n'),
      );
    });

  program
    .command('discard')
    .description('give up a stopped, gone, lost, rejected or failed worker: close its pane, remove its worktree (never forced), keep its branch, archive its brief and report, free its id')
    .argument('[id]', 'worker id')
    .option('--all-finished', 'every worker that can be discarded (refusals are listed, the rest go on)')
    .option('--delete-branch', 'also delete its branch (refused when it has commits on no other branch or remote)')
    .option('--discard-commits', 'with --delete-branch: confirm that its unmerged commits may be lost')
    .option('--forget', "drop the worker's record without removing its worktree (when git cannot remove it); says what is left on disk")
    .action(async (id: string | undefined, o: { allFinished?: boolean; deleteBranch?: boolean; discardCommits?: boolean; forget?: boolean }, cmd: Command) => {
      if (!id && !o.allFinished) throw new UsageError('bad-discard', 'which worker? hand discard <id>, or hand discard --all-finished.');
      if (o.discardCommits && !o.deleteBranch) throw new UsageError('bad-discard', '--discard-commits only confirms --delete-branch; pass both, or neither.');
      const r = await call<Record<string, any>>(paths(cmd), 'discard', { id, allFinished: Boolean(o.allFinished), deleteBranch: Boolean(o.deleteBranch), discardCommits: Boolean(o.discardCommits), forget: Boolean(o.forget) });
      const line = (d: Record<string, any>) =>
        `${d.id}: discarded (was ${d.stage}) · worktree ${d.worktree} · pane ${d.pane} · branch ${d.branchName} ${d.branch}${d.archivedTo ? ` · brief and report kept in ${d.archivedTo}` : ''}${d.item ? ` · item ${d.item.id} is back in the queue` : ''}${d.leftBehind ? `\nleft on disk for you to remove: ${d.leftBehind.join(', ')} (and branch ${d.branchName}; \`git worktree prune\` in the repository once it is gone)` : ''}`;
      emit(json(cmd), r, () =>
        r.all
          ? [...r.discarded.map(line), ...r.refused.map((x: Record<string, string>) => `${x.id}: left in place — ${x.message}`), ...(r.discarded.length + r.refused.length === 0 ? ['nothing to discard'] : [])].join('\n')
          : line(r),
      );
      if (r.all && r.refused.length > 0) setExitCode(1);
    });

  program
    .command('land')
    .description('gather landing evidence for a finished worker and open its landing gate')
    .argument('<id>', 'worker id')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await ops.land(paths(cmd), { id });
      emit(json(cmd), r, () => {
        const e = r.evidence ?? {};
        const head = r.gate === 'skipped-yolo' ? `${id}: landed without a gate (yolo project)` : `${id}: landing gate open · approve with hand approve ${id}, or hand reject ${id} --reason …`;
        const g = r.gateRun as Record<string, string | null> | undefined;
        const gate = g ? [`  review gate: ${g.outcome ?? 'passed'} (run ${g.runId ?? '?'}) · approving releases its ${g.releasedByApproval}`] : [];
        return [head, ...gate, `  ${e.branch} onto ${e.base} · ${e.verdict}`, ...(String(e.diffStat ?? '').trim() ? [String(e.diffStat).trimEnd()] : []), ...(String(e.log ?? '').trim() ? [String(e.log).trimEnd()] : [])].join('\n');
      });
    });

  program
    .command('approve')
    .description('approve the open gate of a worker (lands it per the project posture)')
    .argument('<id>', 'worker id')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await ops.approve(paths(cmd), { id });
      emit(json(cmd), r, () => approveText(id, r));
    });

  program
    .command('reject')
    .description('reject the open gate of a worker, saying why')
    .argument('<id>', 'worker id')
    .requiredOption('--reason <text>', 'why it is rejected (told to the worker and kept)')
    .action(async (id: string, o: { reason: string }, cmd: Command) => {
      const r = await ops.reject(paths(cmd), { id, reason: o.reason });
      emit(json(cmd), r, () => `${id}: rejected (${o.reason})${r.item ? ` · item ${r.item.id} is back in the queue (hand dispatch --item ${r.item.id} takes it again)` : ''}`);
    });

  program
    .command('landings')
    .description('list open landing gates and what each waits for')
    .action(async (_o, cmd: Command) => {
      const r = await ops.landings(paths(cmd));
      emit(json(cmd), r, () => (r.length ? table(r, ['id', 'posture', 'waitingFor']) : 'no open landing gates'));
    });

  program
    .command('review')
    .description('the review page: the fleet, briefs, screens, diffs and gates in your browser (prints its URL)')
    .option('--open', 'open the page in your browser (xdg-open / open)')
    .action(async (o: { open?: boolean }, cmd: Command) => {
      const r = await call<{ url: string }>(paths(cmd), 'review');
      if (o.open) await (await import('./commands/review.ts')).openInBrowser(r.url);
      emit(json(cmd), r, () => `${r.url}\n(the link carries this state directory's token: keep it to yourself)`);
    });

  program
    .command('diagram')
    .description('print the state machines as Mermaid, DOT or JSON')
    .argument('[which]', 'worker, fleet or all', 'all')
    .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot', 'json']).default('mermaid'))
    .action(async (which: string, o: { format: 'mermaid' | 'dot' | 'json' }) => {
      if (!['worker', 'fleet', 'all'].includes(which)) throw new UsageError('bad-diagram', `no machine called ${JSON.stringify(which)}. Use worker, fleet or all.`);
      const { renderDiagram } = await import('./commands/diagram.ts');
      cliOut().write(`${renderDiagram(which as 'worker' | 'fleet' | 'all', o.format)}\n`);
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
    .command('hook', { hidden: true })
    .description("run by a worker's Claude Code hooks: forwards the hook's payload (stdin) to the daemon; always exits 0")
    .argument('<event>', 'the hook event (Notification, Stop, UserPromptSubmit, SessionStart, SessionEnd)')
    .action(async (event: string, _o, cmd: Command) => {
      // Never fail or hold up Claude Code: whatever happens here, the hook exits 0.
      try {
        const { runHook } = await import('./commands/hook.ts');
        const r = await runHook(event, { home: (cmd.optsWithGlobals() as { home?: string }).home });
        if (json(cmd)) cliOut().write(`${JSON.stringify(r)}\n`);
      } catch {
        // swallowed on purpose (see above)
      }
      setExitCode(0);
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
      const r = await runDoctor(resolveHome(opts.home, cliEnv()));
      emit(json(cmd), r, () => formatDoctor(r));
      setExitCode(r.ok ? 0 : 1);
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

  // One stream for the whole fleet: the Hand's wake (hand watch --needs-you).
  registerWatch(program, ctx);
  // The Hand's workspace and its views: init, digest, survey, audience, index, memory, mcp.
  registerHandCommands(program, ctx);
  // Backlog, decisions, away mode, journal, notifications, usage (issue 13).
  registerWorkCommands(program, ctx);
  return program;
}

/** Runs `hand` with `argv` (process.argv's shape) and `io`; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const jsonWanted = argv.includes('--json');
  const { value, exitCode } = await withCliIo(io, async () => {
    try {
      await buildProgram().parseAsync(argv);
      return null;
    } catch (err) {
      if (err instanceof CommanderError) {
        if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
        return 2;
      }
      return reportError(err, jsonWanted);
    }
  });
  return value ?? exitCode ?? 0;
}
