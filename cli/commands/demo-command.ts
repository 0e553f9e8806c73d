/**
 * `hand demo [--keep]`: a throwaway repository with three mock workers (./demo.ts, loaded when it runs).
 */
import { type Command } from 'commander';
import type { CommandContext } from './context.ts';

export function registerDemo(program: Command, _ctx: CommandContext): void {
  program
    .command('demo')
    .description('make a throwaway repository, dispatch three mock workers and show the fleet live')
    .option('--keep', 'leave the demo daemon running at the end')
    .action(async (o: { keep?: boolean }, cmd: Command) => {
      const { runDemo } = await import('./demo.ts');
      const opts = cmd.optsWithGlobals() as { home?: string; json?: boolean };
      await runDemo({ home: opts.home, json: opts.json, keep: o.keep });
    });
}
