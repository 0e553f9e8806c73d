/**
 * `hand project set <name>`: change a registered project's settings (from each worker's next launch).
 * `hand project host <name> <host> <path>`: where the project's checkout is on another machine.
 */
import type { PermissionPosture } from '../../contract/methods.ts';
import { Option, type Command } from 'commander';
import { call } from '../client.ts';
import type { PermissionsSetResult } from '../../contract/methods/fleet.ts';
import { emit } from '../output.ts';
import { UsageError } from '../../contract/errors.ts';
import type { CommandContext } from './context.ts';
import { AGENTS } from '../../contract/vocabulary.ts';
import { agentArg } from '../hand-ops.ts';

export function registerProjectSet(program: Command, ctx: CommandContext): void {
  const project = program.command('project').description('change a registered project');
  project
    .command('set')
    .description("change a project's settings (applies from each worker's next launch)")
    .argument('<name>', 'project name (hand projects lists them)')
    .addOption(new Option('--permissions <posture>', "workers' permission prompts: off, edits or ask").choices(['off', 'edits', 'ask']))
    .addOption(new Option('--agent <agent>', "the project's default agent: what hand dispatch runs without --agent").choices(AGENTS))
    .option('--accept-base', "the base branch moved outside a landing by your own hand (a pull, your commit): record its tip as yours so landing goes on")
    .option('--budget <usd/day>', "what the project's workers may spend a day, e.g. 20usd/day (dispatch refuses beyond it, warns from 80 %); none removes it")
    .addOption(new Option('--resume-lost <when>', 'auto: lost workers (their terminal gone with a reboot) are resumed in their own conversations when the daemon starts; ask: the person runs hand resume').choices(['auto', 'ask']))
    .action(async (name: string, o: { permissions?: PermissionPosture; agent?: string; acceptBase?: boolean; budget?: string; resumeLost?: 'auto' | 'ask' }, cmd: Command) => {
      if (o.acceptBase) {
        if (o.permissions !== undefined || o.agent !== undefined) throw new UsageError('one-thing-at-a-time', 'pass --accept-base, or --permissions/--agent, not both.');
        const r = await call(ctx.paths(cmd), 'projectSet', { name, acceptBase: true });
        emit(ctx.json(cmd), r, () => `${r.name}: ${r.describe}`);
        return;
      }
      if (o.permissions === undefined && o.agent === undefined && o.budget === undefined && o.resumeLost === undefined) {
        throw new UsageError('nothing-to-set', 'nothing to change: pass --permissions off|edits|ask, --agent <agent>, --budget <n>usd/day|none, --resume-lost auto|ask or --accept-base.');
      }
      const r = (await call(ctx.paths(cmd), 'projectSet', { name, permissions: o.permissions, agent: agentArg(o.agent), ...(o.budget !== undefined && { budget: o.budget }), ...(o.resumeLost && { resumeLost: o.resumeLost }) })) as PermissionsSetResult;
      const a = r.defaultAgentChange;
      emit(ctx.json(cmd), r, () =>
        [
          ...(o.permissions !== undefined ? [`${r.name}: ${r.changed ? `permissions ${r.previous} → ${r.permissions}` : `permissions already ${r.permissions}`} · ${r.describe}`] : []),
          ...(r.running?.length && r.changed ? [`  ${r.running.length} running worker(s) keep ${r.previous} until relaunched: ${r.running.join(', ')}`] : []),
          ...(a ? [`${r.name}: ${a.changed ? `default agent ${a.previous ?? 'claude (none recorded)'} → ${a.now}` : `default agent already ${a.now}`} · hand dispatch without --agent runs ${a.now}; running workers keep their agent`] : []),
          ...(o.budget !== undefined ? [`${r.name}: ${r.budgetUsdPerDay ? `budget $${r.budgetUsdPerDay.toFixed(2)} a day · dispatch refuses once its workers spent it today, warns from 80 %` : 'no daily budget'}`] : []),
          ...(o.resumeLost ? [`${r.name}: ${r.resumeLost === 'auto' ? 'lost workers are resumed in their own conversations when the daemon finds them lost' : 'lost workers wait for hand resume'}`] : []),
        ].join('\n'),
      );
    });
  project
    .command('host')
    .description("where the project's checkout is on a host (git there must say it is one); --default sends its workers there when a dispatch names no host")
    .argument('<name>', 'project name (hand projects lists them)')
    .argument('<host>', 'host name (hand host list)')
    .argument('<path>', 'absolute path of the checkout on that host')
    .option('--default', "this project's workers go to this host when hand dispatch has no --host")
    .action(async (name: string, host: string, path: string, o: { default?: boolean }, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'project.host', { name, host, path, default: o.default === true });
      emit(ctx.json(cmd), r, () => [`${r.name}:`, ...r.hosts.map((h) => `  ${h.host}  ${h.path}${h.default ? '  (default)' : ''}`)].join('\n'));
    });
}
