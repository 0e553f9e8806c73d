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
    .option('--propose', 'register nothing: say the name and the posture annex would use (from the origin remote and what this machine can run), and what each posture needs')
    .action(async (repo: string, o: { name?: string; posture: string; yolo: boolean; permissions?: string; agent?: string; propose?: boolean }, cmd: Command) => {
      if (o.propose) {
        const p = await ops.annexPropose(ctx.paths(cmd), { repo });
        return emit(ctx.json(cmd), p, () => [
          `${p.repo}: ${p.registeredAs ? `registered as ${p.registeredAs}` : `name ${p.name}${p.nameFree ? '' : ' (taken: pass --name)'}`}`,
          `proposed: ${p.posture}, yolo off — ${p.why}`,
          ...p.options.map((x) => `  ${x.posture.padEnd(22)} ${x.ready ? 'ready' : `not now: ${x.problem}`}`),
          `register it: hand annex ${p.repo} --posture ${p.posture}${p.nameFree || p.registeredAs ? '' : ' --name <name>'}`,
        ].join('\n'));
      }
      const r = await ops.annex(ctx.paths(cmd), { repo, ...o });
      emit(ctx.json(cmd), r, () =>
        [`${r.updated ? 'updated' : 'registered'} ${r.name} → ${r.repo} (${r.posture}${r.yolo ? ', yolo' : ''}, permissions ${r.permissions}, agent ${r.defaultAgent ?? 'claude'})`, ...repoSettingsLines(r.agentSettings)].join('\n'),
      );
    });
}
