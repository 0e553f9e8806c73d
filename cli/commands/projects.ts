/**
 * `hand projects`: the registered projects.
 */
import { type Command } from 'commander';
import { table } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';
import { answerAction } from './answer-action.ts';

export function registerProjects(program: Command, ctx: CommandContext): void {
  program
    .command('projects')
    .description('list registered projects')
    .action(answerAction(ctx, ops.projects, (r) => {
      // The agent column is what a dispatch without --agent runs (claude when none was recorded).
      const rows = r.map((p) => ({ ...p, agent: p.defaultAgent ?? 'claude' }));
      return r.length ? table(rows, ['name', 'repo', 'posture', 'yolo', 'permissions', 'agent']) : 'no projects registered (hand annex <repo>)';
    }));
}
