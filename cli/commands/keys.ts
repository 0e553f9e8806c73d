/**
 * `hand keys <id> <key>`: exactly one key per call.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { UsageError } from '../../contract/errors.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerKeys(program: Command, ctx: CommandContext): void {
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
      const r = await ops.keys(ctx.paths(cmd), { id, key, allowNonEmptyBox: o.allowNonEmptyBox });
      emit(ctx.json(cmd), r, () => `${id}: pressed ${r.key} · now ${r.stage} (${r.state})`);
    });
}
