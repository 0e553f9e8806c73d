/**
 * `hand relaunch <id>`: a fresh session in the same worktree and branch, briefed with a progress note.
 */
import { definedOnly } from '../hand-ops.ts';
import { type Command } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { parseDuration } from '../durations.ts';
import { cliEnv } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerRelaunch(program: Command, ctx: CommandContext): void {
  program
    .command('relaunch')
    .description('stop a wedged worker (by /exit) and start a fresh session in the same worktree and branch, briefed with a progress note')
    .argument('<id>', 'worker id')
    .option('--note <text|file>', 'what the new session should know (a file path reads the file)')
    .option('--force', 'relaunch even while the worker is working')
    .option('--stall <duration>', 'report a stall after this long without change', '20m')
    .action(async (id: string, o: { note?: string; force?: boolean; stall: string }, cmd: Command) => {
      const stallMs = parseDuration(o.stall, '--stall');
      let note = o.note;
      if (note !== undefined && existsSync(note) && statSync(note).isFile()) note = readFileSync(note, 'utf8');
      const r = await call(ctx.paths(cmd), 'relaunch', { id, note, force: Boolean(o.force), stallMs, env: definedOnly(cliEnv()) });
      emit(ctx.json(cmd), r, () =>
        [
          `${id}: relaunched (was ${r.stoppedFrom}) · same worktree ${r.worktree} on ${r.branch}`,
          `  progress note ${r.progressNotePath}${r.previousReport !== null ? ' (with the previous report)' : ''}`,
        ].join('\n'),
      );
    });
}
