/**
 * `hand report <id>`: the worker's report as the daemon reads it — never through a link, capped,
 * quoted as the worker's words (issue 38 item 2). Exit 0 when there is one; 1 when there is none
 * or it was refused (the reason said).
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import { setExitCode } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerReport(program: Command, ctx: CommandContext): void {
  program
    .command('report')
    .description("print the worker's report, quoted as its words (read as a stranger's file: never through a link, capped)")
    .argument('<id>', 'worker id')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await ops.report(ctx.paths(cmd), { id });
      emit(ctx.json(cmd), r, () =>
        r.state === 'read'
          ? `${r.text}${r.truncated ? `\n(cut: the report is longer than kingshand reads; the rest is in ${r.path})` : ''}`
          : r.state === 'refused'
            ? `${id}'s report at ${r.path} was ${r.refused}`
            : `${id} has written no report yet (${r.path})`,
      );
      if (r.state !== 'read') setExitCode(1);
    });
}
