/**
 * `hand status [id]`: one row per worker, and the work footer under the table.
 */
import { type Command } from 'commander';
import { call } from '../client.ts';
import { emit, table } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';
import { storeLine } from '../store-line.ts';

const STATUS_COLUMNS = ['id', 'project', 'stage', 'state', 'blockedReason', 'promptBox', 'readable', 'live', 'backend', 'agent', 'agentVersion', 'permissions', 'reportExists', 'lastActivity'];

export function registerStatus(program: Command, ctx: CommandContext): void {
  program
    .command('status')
    .description('one row per worker: stage, screen state, prompt box, liveness, report')
    .argument('[id]', 'only this worker')
    .option('--work', 'with --json: an object with the workers plus backlog, decisions, away mode and notifications')
    .action(async (id: string | undefined, o: { work?: boolean }, cmd: Command) => {
      const r = await ops.status(ctx.paths(cmd), { id });
      // `--json` alone is the rows and nothing else: no second request, no text renderers loaded
      // (the command a Hand or a script runs most often, issue 26).
      if (ctx.json(cmd) && !o.work) return emit(true, r, () => '');
      const work = await call(ctx.paths(cmd), 'work.summary');
      if (ctx.json(cmd)) return emit(true, { workers: r, ...work }, () => '');
      const { statusFooter } = await import('./work.ts');
      // Said under the table while the state database takes no writes (locked, disk full); --json has it in `hand daemon status --json`.
      const { store } = await call(ctx.paths(cmd), 'ping');
      // A worktree deleted outside kingshand is said under the table (too rare for a column).
      const missing = r.filter((row) => row.worktreeMissing).map((row) => `${row.id}: its worktree is missing (deleted outside kingshand?)`);
      // A screen that cannot be read now says why (its terminal server did not answer): never the last reading.
      missing.push(...r.filter((row) => row.couldNotTell).map((row) => `${row.id}: could not tell: ${row.couldNotTell} (not gone, not stalled; read again when it answers)`));
      // Two live workers touching the same files: the second landing will need a rebase (issue 40).
      const { overlapLine, pairsOfRows } = await import('../../contract/overlap-words.ts');
      missing.push(...pairsOfRows(r).map((p) => `overlap: ${overlapLine(p)}`));
      const unread = r.filter((row) => row.overlapsUnread).length;
      if (unread > 0) missing.push(`overlaps: the files of ${unread} worker${unread === 1 ? ' were' : 's were'} still being read; the next status says any`);
      // A far host's changed key is the host's condition (issue 43): said once for its workers.
      const keyLines = new Map<string, string>();
      for (const row of r) if (row.host !== 'local' && row.problem?.startsWith('could not tell — host key changed')) keyLines.set(row.host, `${row.problem} (workers: ${r.filter((x) => x.host === row.host).map((x) => x.id).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).join(', ')})`);
      missing.push(...keyLines.values());
      const { withWitnessText } = await import('./witness-columns.ts');
      const { costText } = await import('../../contract/cost-words.ts');
      const { resumeLine } = await import('../../contract/resume-words.ts');
      // A lost worker (its terminal went: a reboot) says whether its conversation can be resumed, or why not; --json has it for every gone one.
      missing.push(...r.flatMap((row) => (row.resume && row.stage === 'lost' ? [resumeLine(row.id, row.stage, row.resume)] : [])));
      // The host column appears once a worker runs on another machine (a one-machine fleet reads as before).
      const columns = r.some((row) => row.host !== 'local') ? [...STATUS_COLUMNS.slice(0, 9), 'host', ...STATUS_COLUMNS.slice(9)] : STATUS_COLUMNS;
      emit(false, r, () => `${r.length ? [table(withWitnessText(r).map((row, i) => ({ ...row, cost: r[i]!.cost ? costText(r[i]!.cost) : null })), [...columns, 'disputed', 'tokens', 'cost', 'item']), ...missing].join('\n') : 'no workers (hand dispatch … starts one)'}\n${statusFooter(work)}${storeLine(store, ctx.paths(cmd).home)}`);
    });
}
