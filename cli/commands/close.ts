/**
 * `hand close <id>`: the close-out of a read-only worker (counsel) — its report is the result,
 * nothing lands: stopped, its worktree removed, its report archived, its item done.
 */
import { type Command } from 'commander';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import type { CommandContext } from './context.ts';

export function registerClose(program: Command, ctx: CommandContext): void {
  program
    .command('close')
    .description("end a read-only worker (dispatch --read-only): its report is the result; the agent stops, its worktree is removed (never forced), brief and report are archived, its backlog item is done")
    .argument('<id>', 'worker id')
    .option('--force', 'close it without a report, or while it still works')
    .action(async (id: string, o: { force?: boolean }, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'close', { id, ...(o.force ? { force: true } : {}) });
      emit(ctx.json(cmd), r, () =>
        `${r.id}: closed · worktree ${r.worktree} · branch ${r.branchName} ${r.branch}${r.reportArchived ? ` · its report is kept in ${r.reportArchived}` : ''}${r.itemDone ? ` · item ${r.itemDone.id} is done` : ''}`,
      );
    });
}
