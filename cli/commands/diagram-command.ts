/**
 * `hand diagram [which]`: the state machines as Mermaid, DOT or JSON. The machines are loaded
 * (./diagram.ts) only when it runs.
 */
import { Option, type Command } from 'commander';
import { UsageError } from '../../contract/errors.ts';
import { cliOut } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerDiagram(program: Command, _ctx: CommandContext): void {
  program
    .command('diagram')
    .description('print the state machines as Mermaid, DOT or JSON')
    .argument('[which]', 'worker, fleet or all', 'all')
    .addOption(new Option('--format <format>', 'output format').choices(['mermaid', 'dot', 'json']).default('mermaid'))
    .action(async (which: string, o: { format: 'mermaid' | 'dot' | 'json' }) => {
      if (!['worker', 'fleet', 'all'].includes(which)) throw new UsageError('bad-diagram', `no machine called ${JSON.stringify(which)}. Use worker, fleet or all.`);
      const { renderDiagram } = await import('./diagram.ts');
      cliOut().write(`${renderDiagram(which as 'worker' | 'fleet' | 'all', o.format)}\n`);
    });
}
