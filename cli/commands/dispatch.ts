/**
 * `hand dispatch [id]`: start a worker on a brief, in its own worktree and terminal (or hold it for
 * the approval of its brief).
 */
import { Option, type Command } from 'commander';
import { emit } from '../output.ts';
import { pathArg } from '../arguments.ts';
import { AGENTS, BACKENDS } from '../../contract/vocabulary.ts';
import type { AgentChosenBy } from '../../contract/methods/fleet.ts';
import { ops } from '../hand-ops.ts';
import { escapeControls } from '../../io/text/escape-controls.ts';
import { cliErr } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerDispatch(program: Command, ctx: CommandContext): void {
  program
    .command('dispatch')
    .description('start a worker on a brief, in its own worktree and terminal')
    .argument('[id]', 'worker id (letters, digits, - and _; default: the --item id)')
    .option('--repo <path>', 'registered repository (default with --item: its project)')
    .option('--brief <file>', 'the brief the worker reads first (default with --item: its brief)')
    .option('--item <id>', 'the backlog item this worker takes (started now, done when it lands)')
    .option('--read-path <file>', 'a file the worker must read, copied into its folder (repeatable; never keys or credentials)', (v: string, acc: string[]) => [...acc, pathArg(v, '--read-path', '--read-path docs/spec.md')], [] as string[])
    .addOption(new Option('--agent <agent>', "agent to run (default: the project's default agent, else claude)").choices(AGENTS))
    .addOption(new Option('--backend <backend>', 'terminal host').choices(BACKENDS).default('tmux'))
    .option('--stall <duration>', 'report a stall after this long without change', '20m')
    .option('--unclear <duration>', 'wake a person after the screen could not be read for this long', '30s')
    .option('--env <KEY=VALUE>', 'set a variable in the worker (repeatable; wins over the defaults)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--host <name>', "where the worker runs: a host from hand host list (default: the project's default host, else local)")
    .option('--quick', 'a quick dispatch (parley): no review gate runs on it; the brief and its report carry the line PARLEY DISPATCH - NO REVIEW GATE RAN., and its pull request (a push posture) is opened as a draft that kingshand never merges')
    .option('--read-only', "a read-only worker (counsel): it reads and writes its report, its worktree is read-only in kingshand's sandbox, nothing lands; hand close ends it")
    .option('--strict', 'refuse an agent whose installed version failed hand doctor --calibrate (without it: a warning naming the misread situations)')
    .option('--workspace <dir>', "the Hand workspace whose data/ index and standing files apply (default: HAND_WORKSPACE, else the one hand init recorded)")
    .addOption(new Option('--task-kind <kind>', 'no-mistakes-prod-only projects: internal (tooling, automation, process, release) ships direct-PR; product, mixed or uncertain go through the gate').choices(['internal', 'product', 'mixed', 'uncertain']))
    .action(async (id: string | undefined, o: { repo?: string; brief?: string; item?: string; readPath: string[]; agent?: string; backend: string; stall: string; unclear: string; env: string[]; taskKind?: string; workspace?: string; host?: string; strict?: boolean; quick?: boolean; readOnly?: boolean }, cmd: Command) => {
      const r = await ops.dispatch(ctx.paths(cmd), { id, repo: o.repo, brief: o.brief, item: o.item, readPaths: o.readPath, agent: o.agent, backend: o.backend, stall: o.stall, unclear: o.unclear, env: o.env, taskKind: o.taskKind, workspace: o.workspace, host: o.host, ...(o.strict && { strict: true }), ...(o.quick && { quick: true }), ...(o.readOnly && { readOnly: true }) });
      for (const w of r.warnings) cliErr().write(`hand: warning: ${escapeControls(w)}\n`);
      const copied = r.copied;
      if (r.gated) {
        const head = (r.briefHead ?? []).map((l) => `    │ ${l}`);
        emit(ctx.json(cmd), r, () =>
          [
            `${r.id}: waits for your approval of its brief — nothing was created yet (no worktree, branch or terminal; only the brief directory)`,
            `  brief    ${r.briefPath}`,
            ...head,
            ...copied.map((c) => `  copied   ${c.source} → ${c.copy}`),
            `  approve: hand approve ${r.id}   ·   reject: hand reject ${r.id} --reason "…"`,
            `  then: ${r.agent}${agentWhy(r.agentChosenBy)} on ${r.backend}${r.host !== 'local' ? ` on host ${r.host}` : ''}, permissions ${r.permissions}, worktree ${r.worktree} on ${r.branch} from ${r.base}`,
            ...(r.seeded ? [`  config   ${r.seeded.says}`] : []),
          ].join('\n'),
        );
        return;
      }
      const delivery = r.delivery;
      const review = delivery ? [`  ships    ${delivery.ships}${delivery.ci ? ` · CI preflight ${delivery.ci.status} (${delivery.ci.signal})` : ''}`] : [];
      emit(ctx.json(cmd), r, () => [`dispatched ${r.id} (${r.agent}${agentWhy(r.agentChosenBy)} on ${r.backend}${r.host !== 'local' ? ` on host ${r.host}` : ''}, permissions ${r.permissions})${r.item ? ` for item ${r.item}` : ''}`, ...review, `  worktree ${r.worktree}`, `  branch   ${r.branch} from ${r.base}`, `  brief    ${r.briefPath}`, `  report   ${r.reportPath}`, ...(r.seeded ? [`  config   ${r.seeded.says}`] : []), ...(r.postureGap ? [`  posture  ${r.postureGap}`] : []), ...copied.map((c) => `  copied   ${c.source} → ${c.copy}`)].join('\n'));
    });
}

/** Why this agent, in the line a person reads: said unless they typed --agent themselves. */
function agentWhy(by: AgentChosenBy): string {
  return by === 'project-default' ? " (the project's default agent)" : by === 'built-in-default' ? ' (no --agent, no project default)' : '';
}
