/**
 * Where a question's time goes (issue 46), for bench/lib/try-trace.ts: with KH_TRACE_TIMING=<file>
 * the daemon appends a stage timestamp for one pane (KH_TRACE_PANE, default %1) at each step —
 * `%output` heard, `changed` emitted, read sent, reply in, reading delivered — on the mock agent's
 * clock (timeOrigin + now), and every 5 s the control client's counts (lines, bytes, reads,
 * replies, exit probes). Off (one boolean test per `%output`) unless the variable is set.
 */
import { appendFileSync } from 'node:fs';
const file = process.env.KH_TRACE_TIMING;
const pane = process.env.KH_TRACE_PANE ?? '%1';
export const tracing = file !== undefined && file !== '';
export function trace(paneId: string, stage: string, extra: Record<string, unknown> = {}): void {
  if (!tracing || paneId !== pane) return;
  appendFileSync(file!, JSON.stringify({ stage, t: performance.timeOrigin + performance.now(), ...extra }) + '\n');
}
export const counts = { outputs: 0, outputBytes: 0, reads: 0, replyBytes: 0, probes: 0, chunks: 0, chunkBytes: 0 };
if (tracing) {
  setInterval(() => {
    appendFileSync(file!, JSON.stringify({ stage: 'counts', t: performance.timeOrigin + performance.now(), ...counts }) + '\n');
  }, 5000).unref();
}
