/**
 * `hand relaunch <id>`: a fresh session in the same worktree and branch, briefed with a progress note.
 */
import { definedOnly, parseEnvPairs } from '../hand-ops.ts';
import { type Command } from 'commander';
import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { parseDuration } from '../durations.ts';
import { cliEnv } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerRelaunch(program: Command, ctx: CommandContext): void {
  program
    .command('relaunch')
    .description('stop a wedged worker (by /exit) and start a fresh session in the same worktree and branch, briefed with a progress note; --resume continues its own conversation instead')
    .argument('<id>', 'worker id')
    .option('--note <text|file>', 'what the new session should know (a path names a file, read under the --read-path checks)')
    .option('--force', 'relaunch even while the worker is working')
    .option('--stall <duration>', 'report a stall after this long without change', '20m')
    .option('--resume', "continue the worker's own conversation (its agent session, proved to be its) in a new terminal, with one line saying what happened; refused with the reason when it cannot be proved")
    .option('--env <KEY=VALUE>', "set a variable in the worker, as dispatch's --env did (repeatable; a restarted daemon no longer holds the ones given at dispatch)", (v: string, acc: string[]) => [...acc, v], [] as string[])
    .action(async (id: string, o: { note?: string; force?: boolean; stall: string; resume?: boolean; env: string[] }, cmd: Command) => {
      const envAdd = parseEnvPairs(o.env);
      const stallMs = parseDuration(o.stall, '--stall');
      // A note that names something on disk is a file: the daemon reads it under the same checks
      // as --read-path (never this process, which would hand over whatever the path reaches).
      const file = o.note !== undefined && names(o.note) ? resolve(o.note) : undefined;
      const r = await call(ctx.paths(cmd), 'relaunch', { id, ...(file !== undefined ? { noteFile: file } : { note: o.note }), force: Boolean(o.force), stallMs, env: definedOnly(cliEnv()), ...(Object.keys(envAdd).length && { envAdd }), ...(o.resume && { resume: true }) });
      emit(ctx.json(cmd), r, () =>
        r.resumedSession ? [`${id}: resumed its conversation ${r.resumedSession} (was ${r.stoppedFrom}) · same worktree ${r.worktree} on ${r.branch}`, `  typed: ${r.firstPrompt}`].join('\n') : [
          `${id}: relaunched (was ${r.stoppedFrom}) · same worktree ${r.worktree} on ${r.branch}`,
          `  progress note ${r.progressNotePath}${r.previousReport !== null ? ' (with the previous report)' : ''}`,
          ...(r.previousReportRefused ? [`  previous report ${r.previousReportRefused}`] : []),
        ].join('\n'),
      );
    });
}

/** Whether `note` names something on disk other than a directory (a file, a FIFO, a link): a file argument, never text. */
function names(note: string): boolean {
  try {
    return !lstatSync(note).isDirectory();
  } catch {
    return false;
  }
}
