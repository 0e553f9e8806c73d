/**
 * `hand reject <id> --reason …`: reject the open gate of a worker, saying why.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerReject(program: Command, ctx: CommandContext): void {
  program
    .command('reject')
    .description('reject the open gate of a worker, saying why')
    .argument('<id>', 'worker id')
    .requiredOption('--reason <text>', 'why it is rejected (told to the worker and kept)')
    .action(async (id: string, o: { reason: string }, cmd: Command) => {
      const r = await ops.reject(ctx.paths(cmd), { id, reason: o.reason });
      emit(ctx.json(cmd), r, () => `${id}: rejected (${o.reason})${r.item ? ` · item ${r.item.id} is back in the queue (hand dispatch --item ${r.item.id} takes it again)` : ''}`);
    });
}
