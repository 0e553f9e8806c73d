/**
 * `hand land <id>`: gather landing evidence and open the worker's landing gate.
 */
import { type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import type { CommandContext } from './context.ts';
import { landingSettingsLines } from './agent-settings-text.ts';
import type { BrowserChecksVerdict } from '../../contract/browser-checks.ts';

/** The browser checks' verdict, and each check that is not verified with why (the worker's record quoted, as the daemon gives it). */
export function browserChecksLines(v: BrowserChecksVerdict | undefined): string[] {
  if (!v) return [];
  return [`  browser checks: ${v.line}`, ...v.checks.filter((c) => c.result !== 'verified').map((c) => `    ${c.id} ${c.result}: ${c.said}`)];
}

export function registerLand(program: Command, ctx: CommandContext): void {
  program
    .command('land')
    .description('gather landing evidence for a finished worker and open its landing gate')
    .argument('<id>', 'worker id')
    .option('--accept-agent-settings', "on a yolo project (where land lands): your explicit word on what the landing changes in the repository's own agent settings; at a gate, give it with hand approve", false)
    .option('--rebase', 'the base moved on since the branch was cut: rebase it onto the base in its worktree first (only when it applies cleanly; no merge commit, nothing forced)', false)
    .action(async (id: string, o: { acceptAgentSettings: boolean; rebase: boolean }, cmd: Command) => {
      const r = await ops.land(ctx.paths(cmd), { id, acceptAgentSettings: o.acceptAgentSettings, rebase: o.rebase });
      emit(ctx.json(cmd), r, () => {
        const e = r.evidence;
        const head = r.gate === 'skipped-yolo' ? `${id}: landed without a gate (yolo project)` : `${id}: landing gate open · approve with hand approve ${id}, or hand reject ${id} --reason …`;
        const g = 'gateRun' in r ? r.gateRun : undefined;
        const gate = g ? [`  review gate: ${g.outcome ?? 'passed'} (run ${g.runId ?? '?'}) · approving releases its ${g.releasedByApproval}`] : [];
        const word = e.agentSettings?.needsWord && r.gate === 'open' ? `${id}: landing gate open · it changes the repository's agent settings: approve only with hand approve ${id} --accept-agent-settings, or hand reject ${id} --reason …` : head;
        return [word, ...gate, `  ${e.branch} onto ${e.base} · ${e.verdict}`, ...browserChecksLines(e.browserChecks), ...landingSettingsLines(id, e.agentSettings), ...(e.diffStat.trim() ? [e.diffStat.trimEnd()] : []), ...(e.log.trim() ? [e.log.trimEnd()] : [])].join('\n');
      });
    });
}
