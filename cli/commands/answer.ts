/**
 * `hand answer <id> <option>`: the person's choice in the dialog on the worker's screen.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerAnswer(program: Command, ctx: CommandContext): void {
  program
    .command('answer')
    .description("select the person's choice in the dialog on the worker's screen: keys one per call, the screen read back between (refuses if the dialog changed)")
    .argument('<id>', 'worker id')
    .argument('<option>', 'the option number the dialog shows')
    .option('--fingerprint <fp>', 'dialog.fingerprint from hand read/status/wait --json: the dialog the person answered')
    .action(async (id: string, option: string, o: { fingerprint?: string }, cmd: Command) => {
      const r = await ops.answer(ctx.paths(cmd), { id, option, fingerprint: o.fingerprint });
      emit(ctx.json(cmd), r, () => String(r.message));
    });
}
