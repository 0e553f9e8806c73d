/**
 * CLI routing for issue 13: `hand backlog …`, `hand decisions`, `hand decide`, `hand afk`,
 * `hand journal`, `hand notify …`, `hand usage`. Each command parses its flags, asks the daemon,
 * prints text or --json. Nothing here decides anything.
 */
import { quoteWorker } from '../../contract/worker-words.ts';
import { Option, type Command } from 'commander';
import { UsageError } from '../../contract/errors.ts';
import { HOLD_KINDS, type HoldKind } from '../../contract/vocabulary.ts';
import { formatAwayAccount } from './away-text.ts';
import { journalSince } from '../durations.ts';
import { briefFileText } from '../arguments.ts';
import { emit, table } from '../output.ts';
import { setExitCode } from '../io.ts';
import { call as callDaemon, type CallArgs } from '../client.ts';
import { RECOVERY_WORDS } from '../../contract/methods/work.ts';
import type { BacklogDoneResult, ItemRow, MethodName, WorkSummary } from '../../contract/methods.ts';
import type { CommandContext } from './context.ts';

/** The flags the item commands take (each command declares its own). */
interface ItemFlags { reason?: string; kind?: HoldKind; by?: string; pr?: string; note?: string }

const ITEM_COLUMNS = ['id', 'project', 'state', 'title', 'holdText', 'waitingOnText', 'worker'];

function itemText(r: ItemRow): ItemRow & { holdText: string | null; waitingOnText: string | null } {
  return { ...r, holdText: r.hold ? `${r.hold.kind}: ${r.hold.reason}` : null, waitingOnText: r.waitingOn?.length ? r.waitingOn.join(',') : null };
}

function showItem(r: ItemRow): string {
  return [
    `${r.id} · ${r.state}${r.ready ? ' · ready' : ''} · ${r.project}`,
    `  ${r.title}`,
    ...(r.hold ? [`  held (${r.hold.kind}): ${r.hold.reason}`] : []),
    ...(r.blockedBy?.length ? [`  blocked by: ${r.blockedBy.map((b: string) => (r.waitingOn.includes(b) ? b : `${b} (done)`)).join(', ')}`] : []),
    ...(r.worker ? [`  worker: ${r.worker}`] : []),
    ...(r.pr ? [`  pr: ${r.pr}`] : []),
    ...(r.note ? [`  note: ${r.note}`] : []),
    ...(r.brief ? ['  brief:', ...String(r.brief).split('\n').map((l) => `    ${l}`)] : []),
  ].join('\n');
}

export function registerWorkCommands(program: Command, ctx: CommandContext): void {
  const call = <M extends MethodName>(cmd: Command, method: M, ...args: CallArgs<M>) => callDaemon(ctx.paths(cmd), method, ...args);
  const json = ctx.json;
  const backlog = program.command('backlog').description('work items that outlive a conversation: queued → in flight → done, with holds and dependencies');
  const item = (verb: string, desc: string, run: (cmd: Command, id: string, o: ItemFlags) => Promise<ItemRow | BacklogDoneResult>, extra?: (c: Command) => Command) => {
    let c = backlog.command(verb).description(desc).argument('<id>', 'item id');
    if (extra) c = extra(c);
    c.action(async (id: string, o: ItemFlags, cmd: Command) => {
      const r = await run(cmd, id, o);
      emit(json(cmd), r, () => showItem(r) + ('released' in r && r.released.length ? `\n  released: ${r.released.join(', ')}` : ''));
    });
  };
  backlog
    .command('add')
    .description('add a queued item')
    .argument('<id>', 'item id (letters, digits, . _ -)')
    .argument('<title...>', 'one-line title')
    .requiredOption('--project <name>', 'registered project it belongs to')
    .option('--brief <file>', 'a brief file for the worker that takes it')
    .action(async (id: string, title: string[], o: { project: string; brief?: string }, cmd: Command) => {
      const r = await call(cmd, 'backlog.add', { id, project: o.project, title: title.join(' '), brief: briefFileText(o.brief) });
      emit(json(cmd), r, () => `added ${r.id} (${r.project}): ${r.title}`);
    });
  backlog
    .command('list')
    .description('list items (dropped ones only with --state dropped)')
    .addOption(new Option('--state <state>', 'only this state').choices(['queued', 'in-flight', 'done', 'dropped']))
    .action(async (o: { state?: string }, cmd: Command) => {
      const r = await call(cmd, 'backlog.list', { state: o.state });
      emit(json(cmd), r, () => (r.length ? table(r.map(itemText), ITEM_COLUMNS) : 'the backlog is empty (hand backlog add …)'));
    });
  backlog
    .command('ready')
    .description('what can start now: queued, not held, every blocker done')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'backlog.ready');
      emit(json(cmd), r, () => (r.length ? table(r.map(itemText), ['id', 'project', 'title']) : 'nothing is ready'));
    });
  // Commander makes --reason, --kind and --by mandatory where they are; '' reaches the daemon's refusal otherwise.
  item('show', 'show one item', (cmd, id) => call(cmd, 'backlog.show', { id }));
  item('start', 'mark an item in flight', (cmd, id) => call(cmd, 'backlog.start', { id }));
  item('hold', 'hold an item (kept out of ready)', (cmd, id, o) => {
    if (!o.kind) throw new UsageError('bad-request', 'missing a kind (--kind)', { key: 'kind' }); // commander makes it mandatory
    return call(cmd, 'backlog.hold', { id, reason: o.reason ?? '', kind: o.kind });
  },
    (c) => c.requiredOption('--reason <text>', 'why it is held').addOption(new Option('--kind <kind>', 'what it waits for').choices([...HOLD_KINDS]).makeOptionMandatory()));
  item('unhold', 'release a hold', (cmd, id) => call(cmd, 'backlog.unhold', { id }));
  item('block', 'make an item wait for another', (cmd, id, o) => call(cmd, 'backlog.block', { id, by: o.by ?? '' }), (c) => c.requiredOption('--by <id>', 'the item it waits for'));
  item('done', 'close an item (releases what it blocked)', (cmd, id, o) => call(cmd, 'backlog.done', { id, pr: o.pr, note: o.note }), (c) => c.option('--pr <url>', 'pull request URL').option('--note <text>', 'closing note'));
  item('reopen', 'reopen a closed item', (cmd, id) => call(cmd, 'backlog.reopen', { id }));
  item('drop', 'drop an item without doing it (releases what it blocked)', (cmd, id) => call(cmd, 'backlog.drop', { id }));

  program
    .command('decisions')
    .description('open decisions that parked workers wait on, oldest first')
    .option('--all', 'also answered and declined ones')
    .action(async (o: { all?: boolean }, cmd: Command) => {
      const r = await call(cmd, 'decisions', { all: Boolean(o.all) });
      emit(json(cmd), r, () =>
        r.length
          ? r.map((d) => `${d.key} · ${d.worker} · ${d.state} · opened ${d.openedAt}\n  ${quoteWorker(d.worker, d.question)}${d.options.length ? `\n  options: ${d.options.map((o) => JSON.stringify(o.slice(0, 80))).join(' | ')}` : ''}${d.answer ? `\n  answer: ${d.answer}${d.delivery ? ` (${d.delivery}${d.recovery ? `; ${RECOVERY_WORDS[d.recovery]}` : ''})` : ''}` : ''}`).join('\n')
          : 'no open decisions');
    });
  program
    .command('decide')
    .description('answer a decision (typed into its worker when it is live and its box is empty; a worker whose session is gone is relaunched with it), or decline it')
    .argument('<key>', 'decision key (hand decisions)')
    .argument('[answer...]', 'the answer')
    .option('--declined <why>', 'close it without work, saying why')
    .action(async (key: string, words: string[], o: { declined?: string }, cmd: Command) => {
      if (o.declined && words.length) throw new UsageError('answer-or-decline', 'give either an answer or --declined, not both.');
      const r = await call(cmd, 'decide', { key, answer: words.join(' ') || undefined, declined: o.declined });
      emit(json(cmd), r, () => `${key}: ${r.state} · ${r.message}`);
    });

  const afk = program.command('afk').description('away mode: the fleet is held, what needs you is pushed, the rest is journaled');
  afk
    .command('on')
    .description('go away (running workers go on; no queued item starts)')
    .option('--note <text>', 'what you said on leaving')
    .action(async (o: { note?: string }, cmd: Command) => {
      const r = await call(cmd, 'afk.on', { note: o.note });
      emit(json(cmd), r, () => `away since ${r.since}${r.refreshed ? ' (refreshed)' : ''}${r.unreadable.length ? `\n  warning: cannot read the screens of ${r.unreadable.join(', ')}` : ''}`);
    });
  afk
    .command('off')
    .description('come back: prints the account of what happened')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'afk.off');
      emit(json(cmd), r, () => `${r.wasAway ? '' : '(you were not away)\n'}${formatAwayAccount(r.account)}`);
    });
  afk
    .command('status')
    .description('are you away, since when, how many unread journal entries')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'afk.status');
      emit(json(cmd), r, () => (r.away ? `away since ${r.since}${r.note ? ` (${r.note})` : ''} · ${r.unread} unread` : `not away · ${r.unread} unread`));
    });
  program
    .command('journal')
    .description('the away journal (append-only); damaged entries are named, never reconstructed')
    .option('--since <when>', 'ISO time, or a duration such as 2h')
    .action(async (o: { since?: string }, cmd: Command) => {
      const since = journalSince(o.since);
      const r = await call(cmd, 'journal', since);
      emit(json(cmd), r, () => (r.length ? r.map((e) => (e.damaged ? `#${e.seq} ${e.at} DAMAGED: ${e.problem}` : `#${e.seq} ${e.at} ${e.kind}${e.worker ? ` ${e.worker}` : ''}: ${e.text}${e.question ? ` — ${e.question}` : ''}`)).join('\n') : 'the journal is empty'));
    });

  const notify = program.command('notify').description('where notifications go: ntfy, a webhook, or a command (argv)');
  notify
    .command('add')
    .description('add a target: ntfy <topic-url> | webhook <url> | command <argv…>')
    .argument('<kind>', 'ntfy, webhook or command')
    .argument('<args...>', 'the URL, or the command and its arguments')
    .option('--allow-loopback', 'a URL on this machine (127.0.0.1, localhost, ::1) is meant: a local service of yours')
    .allowUnknownOption(true)
    .action(async (kind: string, args: string[], o: { allowLoopback?: boolean }, cmd: Command) => {
      const r = await call(cmd, 'notify.add', { kind, args, ...(o.allowLoopback ? { allowLoopback: true } : {}) });
      emit(json(cmd), r, () => `${r.added ? 'added' : 'already there:'} ${r.id} (${r.kind} → ${r.where})`);
    });
  notify
    .command('list')
    .description('targets (URLs shown only as scheme and host)')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'notify.list');
      emit(json(cmd), r, () => (r.length ? table(r.map((t) => ({ ...t, failing: t.failing ? `${t.failing.count}× ${t.failing.lastError}` : null })), ['id', 'kind', 'where', 'failing']) : 'no notification targets (hand notify add ntfy <topic-url>)'));
    });
  notify
    .command('remove')
    .description('remove a target')
    .argument('<id>', 'target id (hand notify list)')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await call(cmd, 'notify.remove', { id });
      emit(json(cmd), r, () => `removed ${r.id}`);
    });
  notify
    .command('log')
    .description('the last 50 notifications and how each delivery went (for a target that seems silent)')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'notify.log');
      emit(json(cmd), r, () => (r.length ? table(r.map((d) => ({ seq: d.seq, target: d.targetId, event: d.eventKey, state: d.state, attempts: d.attempts, created: d.createdAt, delivered: d.deliveredAt ?? '-', error: d.lastError ?? '-' })), ['seq', 'target', 'event', 'state', 'attempts', 'created', 'delivered', 'error']) : 'no notification has been sent yet'));
    });
  notify
    .command('test')
    .description('send a test notification to every target (or one)')
    .argument('[id]', 'only this target')
    .action(async (id: string | undefined, _o, cmd: Command) => {
      const r = await call(cmd, 'notify.test', { id });
      emit(json(cmd), r, () => (r.length ? r.map((t) => `${t.ok ? '✓' : '✗'} ${t.id}${t.ok ? '' : ` ${t.error}`}`).join('\n') : 'no notification targets'));
      setExitCode(r.every((t) => t.ok) ? 0 : 1);
    });

  const usage = program
    .command('usage')
    .description("the account's usage window nearest its limit (dispatch refuses at >= 90 %)")
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'usage');
      emit(json(cmd), r, () => r.line);
    });
  usage
    .command('source')
    .description('set the command whose JSON output gives the usage windows (argv, never a shell string)')
    .argument('[argv...]', 'the command and its arguments')
    .option('--clear', 'forget the source')
    .allowUnknownOption(true)
    .action(async (argv: string[], o: { clear?: boolean }, cmd: Command) => {
      if (!o.clear && argv.length === 0) throw new UsageError('bad-usage-source', 'give the command, e.g. hand usage source quota-axi --json, or --clear.');
      const r = await call(cmd, 'usage.source', { argv, clear: Boolean(o.clear) });
      emit(json(cmd), r, () => (r.source ? `usage source: ${r.source.join(' ')}` : 'usage source cleared'));
    });
}

/** The lines under `hand status`: backlog, decisions, away mode, failing targets. */
export function statusFooter(s: WorkSummary): string {
  const lines = [`backlog: ${s.backlog.queued} queued (${s.backlog.ready} ready), ${s.backlog.inFlight} in flight, ${s.backlog.held} held, ${s.backlog.done} done`];
  if (s.decisions.length) lines.push(`decisions waiting on you: ${s.decisions.length}`, ...s.decisions.map((d) => `  ${d.key}: ${quoteWorker(d.worker, d.question)}`));
  if (s.away.active) lines.push(`away since ${s.away.since}${s.away.note ? ` (${s.away.note})` : ''} · ${s.away.unread} journal entries`);
  else if (s.away.unread) lines.push(`${s.away.unread} unread journal entries (hand afk off prints the account)`);
  for (const f of s.notify.failing) lines.push(`notification target ${f.targetId} is failing: ${f.lastError}`);
  return lines.join('\n');
}
