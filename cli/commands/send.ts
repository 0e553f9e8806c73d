/**
 * `hand send <id> <text...>`: type a line into the worker and press Enter.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerSend(program: Command, ctx: CommandContext): void {
  program
    .command('send')
    .description('type a line into the worker and press Enter (refuses when its input box holds text or a dialog waits: answer that with hand answer or hand keys)')
    .argument('<id>', 'worker id')
    .argument('<text...>', 'the text to send')
    .option('--allow-non-empty-box', 'send even though the input box already holds text')
    .action(async (id: string, words: string[], o: { allowNonEmptyBox?: boolean }, cmd: Command) => {
      const r = await ops.send(ctx.paths(cmd), { id, text: words.join(' '), allowNonEmptyBox: o.allowNonEmptyBox });
      emit(ctx.json(cmd), r, () => `sent to ${id} · now ${r.stage} (${r.state})`);
    });
}
