/**
 * `hand resume <id>… | --all-lost`: lost workers back, one at a time, each into its own
 * conversation (its agent session, proved to be its), with one line typed saying what happened.
 * `hand cost [--days N]`: what each worker, project and day spent, from the agents' own session
 * records at the price table.
 */
import { type Command } from 'commander';
import { call } from '../client.ts';
import { emit, table } from '../output.ts';
import { definedOnly, parseEnvPairs } from '../hand-ops.ts';
import { cliEnv } from '../io.ts';
import { UsageError } from '../../contract/errors.ts';
import { costText, tokensText } from '../../contract/cost-words.ts';
import type { CommandContext } from './context.ts';

export function registerResume(program: Command, ctx: CommandContext): void {
  program
    .command('resume')
    .description('bring lost workers back, one at a time, each into its own conversation in the same worktree and branch (refused, with why, for one whose session cannot be proved)')
    .argument('[ids...]', 'workers to resume (each gone: lost, exited)')
    .option('--all-lost', 'every lost worker (its terminal server went: a reboot, a killed server)')
    .option('--env <KEY=VALUE>', "set a variable in the resumed workers, as dispatch's --env did (repeatable; a restarted daemon no longer holds the ones given at dispatch)", (v: string, acc: string[]) => [...acc, v], [] as string[])
    .action(async (ids: string[], o: { allLost?: boolean; env: string[] }, cmd: Command) => {
      if (!o.allLost && ids.length === 0) throw new UsageError('bad-request', 'which workers? hand resume <id>…, or hand resume --all-lost.');
      if (o.allLost && ids.length > 0) throw new UsageError('bad-request', 'name workers or pass --all-lost, not both.');
      const envAdd = parseEnvPairs(o.env);
      const r = await call(ctx.paths(cmd), 'resume', { ...(o.allLost ? { allLost: true } : { ids }), env: definedOnly(cliEnv()), ...(Object.keys(envAdd).length && { envAdd }) });
      emit(ctx.json(cmd), r, () =>
        [
          ...(r.resumed.length === 0 && r.refused.length === 0 ? ['no lost worker to resume'] : []),
          ...r.resumed.map((w) => `${w.id}: resumed its conversation ${w.session} (now ${w.stage})`),
          ...r.refused.map((w) => `${w.id}: not resumed (${w.code}): ${w.why}`),
        ].join('\n'),
      );
    });
}

export function registerCost(program: Command, ctx: CommandContext): void {
  program
    .command('cost')
    .description("what each worker, project and day spent: tokens from the agents' own session records, USD at the price table (a model it has no price for: unknown, never guessed)")
    .option('--days <n>', 'days back, today included', '7')
    .action(async (o: { days: string }, cmd: Command) => {
      const days = Number(o.days);
      if (!Number.isInteger(days) || days < 1) throw new UsageError('bad-request', `--days ${JSON.stringify(o.days)}: a whole number of days, 1 or more.`);
      const r = await call(ctx.paths(cmd), 'cost', { days });
      emit(ctx.json(cmd), r, () =>
        [
          `today (${r.today}): ${costText(r.todayTotal)} · ${tokensText(r.todayTotal)}`,
          '',
          r.projectDays.length
            ? table(r.projectDays.map((d) => ({ day: d.day, project: d.project, cost: costText(d), budget: d.budgetUsd ? `$${d.budgetUsd.toFixed(2)}/day` : '', tokens: tokensText(d) })), ['day', 'project', 'cost', 'budget', 'tokens'])
            : 'nothing spent in these days (or no session read yet)',
          '',
          ...(r.workers.length ? [table(r.workers.map((w) => ({ worker: w.id, project: w.project, cost: costText(w), tokens: tokensText(w) })), ['worker', 'project', 'cost', 'tokens']), ''] : []),
          `prices read ${r.prices.read} from ${r.prices.sources.join(', ')}`,
        ].join('\n'),
      );
    });
}
