/**
 * `hand screen inspect <file>`: analyse a screen capture as the supervisor would (./screen-inspect.ts,
 * loaded when it runs).
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import type { CommandContext } from './context.ts';

export function registerScreen(program: Command, ctx: CommandContext): void {
  const screen = program.command('screen').description('screen analysis tools');
  screen
    .command('inspect')
    .description('analyse a screen capture file (plain or ANSI) as the supervisor would')
    .argument('<file>', 'capture file (tmux capture-pane -p [-e])')
    .option('--ansi', 'the file holds SGR escapes (default: detected)')
    .option('--agent <agent>', 'agent profile', 'claude')
    .action(async (file: string, o: { ansi?: boolean; agent: string }, cmd: Command) => {
      const { screenInspect, formatScreenInspect } = await import('./screen-inspect.ts');
      const r = await screenInspect(file, { ansi: o.ansi, agent: o.agent });
      emit(ctx.json(cmd), r, () => formatScreenInspect(r));
    });
}
