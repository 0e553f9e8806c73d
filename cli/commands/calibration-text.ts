/** Readable text for `hand doctor --calibrate` (its --json is the daemon's object). */
import { SITUATION_TITLES, type AgentCalibration, type CalibrateResult, type SituationResult } from '../../contract/methods/calibration.ts';

const MARK: Record<SituationResult['outcome'], string> = { right: 'right', wrong: 'WRONG', 'not-reached': 'NOT REACHED', 'not-applicable': 'n/a' };

function situationLine(r: SituationResult): string {
  const hook = r.witness ? `; hook: ${r.witness.heard.includes(r.witness.expected) ? r.witness.expected : `${r.witness.heard.join(', ') || 'nothing'} (expected ${r.witness.expected})`}` : '';
  const what = r.outcome === 'not-applicable'
    ? r.note ?? ''
    : r.outcome === 'right'
      ? `${r.read}${hook}`
      : `expected ${r.expected}; read ${r.read ?? 'nothing'}${hook}${r.note ? `\n${' '.repeat(34)}${r.note}` : ''}`;
  return `  ${SITUATION_TITLES[r.situation].padEnd(18)} ${MARK[r.outcome].padEnd(12)} ${what}`;
}

function agentBlock(a: AgentCalibration): string[] {
  const where = `${a.backend}, ${a.sandboxed ? "in kingshand's sandbox" : 'no sandbox'}`;
  const out = [`${a.label} ${a.version ?? '(version unknown)'} — ${a.verdict === 'pass' ? 'PASS' : 'FAIL'} (${(a.ms / 1000).toFixed(1)} s, ${where})`];
  out.push(...a.situations.map(situationLine));
  if (a.sandboxNote) out.push(`  note: ${a.sandboxNote}`);
  if (a.evidence) out.push(`  screens (ANSI and plain) and the result, to attach to a bug report: ${a.evidence}`);
  return out;
}

export function formatCalibration(r: CalibrateResult): string {
  const out: string[] = [];
  for (const a of r.agents) out.push(...agentBlock(a), '');
  for (const s of r.skipped) out.push(`skipped ${s.label}: ${s.reason}`);
  const failed = r.agents.filter((a) => a.verdict === 'fail');
  if (r.agents.length === 0) out.push('no agent was calibrated');
  else out.push(failed.length === 0 ? `every calibrated agent is read right (${r.agents.map((a) => `${a.agent} ${a.version}`).join(', ')})` : `misread: ${failed.map((a) => `${a.agent} ${a.version} at ${a.situations.filter((s) => s.outcome === 'wrong' || s.outcome === 'not-reached').map((s) => SITUATION_TITLES[s.situation]).join(', ')}`).join('; ')} — dispatch of ${failed.length === 1 ? 'that agent' : 'those agents'} warns (hand dispatch --strict refuses)`);
  return out.join('\n');
}
