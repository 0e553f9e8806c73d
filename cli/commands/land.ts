/**
 * `hand land <id>`: gather landing evidence and open the worker's landing gate.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';

export function registerLand(program: Command, ctx: CommandContext): void {
  program
    .command('land')
    .description('gather landing evidence for a finished worker and open its landing gate')
    .argument('<id>', 'worker id')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await ops.land(ctx.paths(cmd), { id });
      emit(ctx.json(cmd), r, () => {
        const e = r.evidence;
        const head = r.gate === 'skipped-yolo' ? `${id}: landed without a gate (yolo project)` : `${id}: landing gate open · approve with hand approve ${id}, or hand reject ${id} --reason …`;
        const g = 'gateRun' in r ? r.gateRun : undefined;
        const gate = g ? [`  review gate: ${g.outcome ?? 'passed'} (run ${g.runId ?? '?'}) · approving releases its ${g.releasedByApproval}`] : [];
        return [head, ...gate, `  ${e.branch} onto ${e.base} · ${e.verdict}`, ...(e.diffStat.trim() ? [e.diffStat.trimEnd()] : []), ...(e.log.trim() ? [e.log.trimEnd()] : [])].join('\n');
      });
    });
}
