/**
 * The away account as a person reads it (`hand afk off`): waits on you first, then what landed,
 * what broke, what is still running. The shape is the daemon's `afk.off` result; only the
 * fields printed here are named, so the CLI depends on the wire, not on the daemon's modules.
 */
import { quoteWorker } from '../../contract/worker-words.ts';

export interface AwayAccountText {
  summary: string;
  landed: { text: string }[];
  waitingOnYou: { worker?: string; text: string; question?: string; command?: string }[];
  readyToLand?: { worker: string; text: string; command: string }[];
  decisions: { key: string; worker: string; question: string; said?: string; options: string[] }[];
  broke: { text: string }[];
  /** lastActivity quoted by the daemon. */
  stillRunning: { worker: string; stage: string; state: string; lastActivity: string }[];
  damaged: { seq: number; problem: string }[];
}

export function formatAwayAccount(a: AwayAccountText): string {
  const out = [a.summary];
  // The worker's words come quoted and attributed from the daemon (contract/worker-words.ts).
  const q = (s?: string) => (s ? ` — ${s}` : '');
  if (a.waitingOnYou.length || a.decisions.length) {
    out.push('Waiting on you:');
    for (const d of a.decisions) out.push(`  decision ${d.key}: ${d.said ?? quoteWorker(d.worker, d.question)}${d.options.length ? ` [${d.options.map((o) => quoteWorker(d.worker, o.slice(0, 80))).join(' | ')}]` : ''}\n    answer: hand decide ${d.key} "<answer>"`);
    for (const w of a.waitingOnYou) out.push(`  ${w.text}${q(w.question)}${w.command ? `\n    → ${w.command}` : ''}`);
  }
  if (a.readyToLand?.length) out.push('Finished, waiting for your landing:', ...a.readyToLand.map((r) => `  ${r.text} → ${r.command}`));
  if (a.landed.length) out.push('Landed:', ...a.landed.map((l) => `  ${l.text}`));
  if (a.broke.length) out.push('Broke:', ...a.broke.map((b) => `  ${b.text}`));
  out.push(a.stillRunning.length ? 'Still running:' : 'Nothing is running.', ...a.stillRunning.map((r) => `  ${r.worker} ${r.stage} (${r.state})${r.lastActivity ? ` · ${r.lastActivity}` : ''}`));
  for (const d of a.damaged) out.push(`  journal entry ${d.seq} is damaged: ${d.problem}`);
  return out.join('\n');
}
