/**
 * `hand discard [id] | --all-finished`: give up a finished worker and free its id.
 */
import type { DiscardedWorker } from '../../contract/methods.ts';
import { type Command } from 'commander';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { UsageError } from '../../contract/errors.ts';
import { setExitCode } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerDiscard(program: Command, ctx: CommandContext): void {
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
      const r = await call(ctx.paths(cmd), 'discard', { id, allFinished: Boolean(o.allFinished), deleteBranch: Boolean(o.deleteBranch), discardCommits: Boolean(o.discardCommits), forget: Boolean(o.forget) });
      const line = (d: DiscardedWorker) =>
        `${d.id}: discarded (was ${d.stage}) · worktree ${d.worktree} · pane ${d.pane} · branch ${d.branchName} ${d.branch}${d.archivedTo ? ` · brief and report kept in ${d.archivedTo}` : ''}${d.item ? ` · item ${d.item.id} is back in the queue` : ''}${d.leftBehind ? `\nleft on disk for you to remove: ${d.leftBehind.join(', ')} (and branch ${d.branchName}; \`git worktree prune\` in the repository once it is gone)` : ''}`;
      emit(ctx.json(cmd), r, () =>
        'all' in r
          ? [...r.discarded.map(line), ...r.refused.map((x) => `${x.id}: left in place — ${x.message}`), ...(r.discarded.length + r.refused.length === 0 ? ['nothing to discard'] : [])].join('\n')
          : line(r),
      );
      if ('all' in r && r.refused.length > 0) setExitCode(1);
    });
}
