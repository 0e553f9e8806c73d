/**
 * `hand read <id>`: the worker's visible screen.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerRead(program: Command, ctx: CommandContext): void {
  program
    .command('read')
    .description("print the worker's visible screen (or scrollback, for people only)")
    .argument('<id>', 'worker id')
    .option('--scrollback <lines>', 'include this many lines of history', (v) => Number.parseInt(v, 10))
    .action(async (id: string, o: { scrollback?: number }, cmd: Command) => {
      const r = await ops.read(ctx.paths(cmd), { id, scrollback: o.scrollback });
      // Blank rows below the last line of output say nothing to a person.
      emit(ctx.json(cmd), r, () => r.text.replace(/\s+$/, ''));
    });
}
