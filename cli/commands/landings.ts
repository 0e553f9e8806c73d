/**
 * `hand landings`: the open landing gates and what each waits for.
 */
import { type Command } from 'commander';
import { table } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';
import { answerAction } from './answer-action.ts';
import { landingSettingsLines } from './agent-settings-text.ts';

export function registerLandings(program: Command, ctx: CommandContext): void {
  program
    .command('landings')
    .description('list open landing gates and what each waits for')
    .action(answerAction(ctx, ops.landings, (r) => {
      const settings = r.flatMap((row) => (row.agentSettings?.changes.length ? [`${row.id}:`, ...landingSettingsLines(row.id, row.agentSettings)] : []));
      return r.length ? [table(r, ['id', 'posture', 'waitingFor']), ...settings].join('\n') : 'no open landing gates';
    }));
}
