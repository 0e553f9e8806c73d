/**
 * `hand doctor`: check the tools and the state directory, with the fix for each problem (./doctor.ts,
 * loaded when it runs).
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { cliEnv, setExitCode } from '../io.ts';
import { resolveHome } from '../../contract/home.ts';
import type { CommandContext } from './context.ts';

export function registerDoctor(program: Command, ctx: CommandContext): void {
  program
    .command('doctor')
    .description('check node, git, tmux, agent binaries and the state directory; print the fix for each problem')
    .action(async (_o, cmd: Command) => {
      const { runDoctor, formatDoctor } = await import('./doctor.ts');
      const opts = cmd.optsWithGlobals() as { home?: string };
      const r = await runDoctor(resolveHome(opts.home, cliEnv()));
      emit(ctx.json(cmd), r, () => formatDoctor(r));
      setExitCode(r.ok ? 0 : 1);
    });
}
