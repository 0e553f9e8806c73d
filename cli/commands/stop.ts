/**
 * `hand stop <id>`: end the worker cleanly (Escape, then /exit; never a kill).
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerStop(program: Command, ctx: CommandContext): void {
  program
    .command('stop')
    .description('end the worker cleanly: Escape if a menu is up or a turn runs, then /exit (never a kill)')
    .argument('<id>', 'worker id')
    .option('--timeout <duration>', 'how long to wait for the agent to exit', '30s')
    .option('--force', 'stop it even though it is parked on an open decision')
    .action(async (id: string, o: { timeout: string; force?: boolean }, cmd: Command) => {
      const r = await ops.stop(ctx.paths(cmd), { id, timeout: o.timeout, force: o.force });
      emit(ctx.json(cmd), r, () => `${id}: ${r.stage} · exit ${r.exitCode ?? 'unknown'} · pane ${r.paneReusable ? 'reusable' : 'not reusable'}`);
    });
}
