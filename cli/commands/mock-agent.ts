/**
 * `hand mock-agent [args...]`: the scripted mock agent (./mock-agent-entry.ts, loaded when it runs).
 */
import { type Command } from 'commander';
import type { CommandContext } from './context.ts';

export function registerMockAgent(program: Command, _ctx: CommandContext): void {
  program
    .command('mock-agent')
    .description('run the scripted mock agent (renders Claude Code screens; for tests and the demo)')
    .allowUnknownOption(true)
    .helpOption(false)
    .argument('[args...]')
    .action(async (args: string[]) => {
      const { runMockAgentCli } = await import('./mock-agent-entry.ts');
      await runMockAgentCli(args);
    });
}
