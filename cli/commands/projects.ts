/**
 * `hand projects`: the registered projects.
 */
import { type Command } from 'commander';
import { emit, table } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerProjects(program: Command, ctx: CommandContext): void {
  program
    .command('projects')
    .description('list registered projects')
    .action(async (_o, cmd: Command) => {
      const r = await ops.projects(ctx.paths(cmd));
      // The agent column is what a dispatch without --agent runs (claude when none was recorded).
      const rows = r.map((p) => ({ ...p, agent: p.defaultAgent ?? 'claude' }));
      emit(ctx.json(cmd), r, () => (r.length ? table(rows, ['name', 'repo', 'posture', 'yolo', 'permissions', 'agent']) : 'no projects registered (hand annex <repo>)'));
    });
}
