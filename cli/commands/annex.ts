/**
 * `hand annex <repo>`: register a git repository so workers can be dispatched into it.
 */
import { Option, type Command } from 'commander';
import { emit } from '../output.ts';
import { AGENTS, POSTURES } from '../../contract/vocabulary.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';
import { repoSettingsLines } from './agent-settings-text.ts';

export function registerAnnex(program: Command, ctx: CommandContext): void {
  program
    .command('annex')
    .description('register a git repository so workers can be dispatched into it')
    .argument('<repo>', 'path inside the repository')
    .option('--name <name>', 'project name (default: the folder name)')
    .addOption(new Option('--posture <posture>', 'delivery posture').choices(POSTURES).default('local-only'))
    .option('--yolo', 'skip the approval gates for this project', false)
    .addOption(new Option('--permissions <posture>', "workers' permission prompts: off (none; deny list applies), edits (edits go through, commands ask), ask (everything asks); default off").choices(['off', 'edits', 'ask']))
    .addOption(new Option('--agent <agent>', "the project's default agent: what hand dispatch runs without --agent (default claude; kept on re-annex)").choices(AGENTS))
    .action(async (repo: string, o: { name?: string; posture: string; yolo: boolean; permissions?: string; agent?: string }, cmd: Command) => {
      const r = await ops.annex(ctx.paths(cmd), { repo, ...o });
      emit(ctx.json(cmd), r, () =>
        [`${r.updated ? 'updated' : 'registered'} ${r.name} → ${r.repo} (${r.posture}${r.yolo ? ', yolo' : ''}, permissions ${r.permissions}, agent ${r.defaultAgent ?? 'claude'})`, ...repoSettingsLines(r.agentSettings)].join('\n'),
      );
    });
}
