/**
 * `hand approve <id>`: approve the open gate of a worker.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { approveText } from './approve-text.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerApprove(program: Command, ctx: CommandContext): void {
  program
    .command('approve')
    .description('approve the open gate of a worker (lands it per the project posture)')
    .argument('<id>', 'worker id')
    .option('--accept-agent-settings', "your explicit word on what the landing changes in the repository's own agent settings (hooks, MCP servers, allow rules…), as hand land shows it", false)
    .action(async (id: string, o: { acceptAgentSettings: boolean }, cmd: Command) => {
      const r = await ops.approve(ctx.paths(cmd), { id, acceptAgentSettings: o.acceptAgentSettings });
      emit(ctx.json(cmd), r, () => approveText(id, r));
    });
}
