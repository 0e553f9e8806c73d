/** How a gone worker's conversation is said in status, the digest, survey and the page: one line, the same everywhere. */
import type { ResumeStanding } from './methods.ts';

/** `w1: lost — its conversation can be resumed (hand resume w1)`, or why it cannot, and the fresh relaunch. */
export function resumeLine(id: string, stage: string, r: ResumeStanding): string {
  const how = stage === 'lost' ? `hand resume ${id}` : `hand relaunch ${id} --resume`;
  return r.can ? `${id}: ${stage} — its conversation can be resumed (${how})` : `${id}: ${stage} — its conversation cannot be resumed: ${r.why}; hand relaunch ${id} starts a fresh session`;
}
