/**
 * How an overlap of two live workers is said (issue 40), one sentence for every face: the status
 * table's footer, survey, the digest and the page. Pure, so the CLI and the daemon share it.
 */
import type { Overlap, OverlapPair } from './methods.ts';

const moreOf = (shown: number, count: number) => (count > shown ? ` (+${count - shown} more)` : '');

/** "a and b both change x, y (+3 more): …" */
export function overlapLine(p: OverlapPair): string {
  return `${p.workers[0]} and ${p.workers[1]} both change ${p.files.join(', ')}${moreOf(p.files.length, p.count)}: the second to land rebases onto the first (hand land <id> --rebase), or steer one away now`;
}

/** One worker's side: "also changed by b: x, y". */
export function overlapWith(o: Overlap): string {
  return `also changed by ${o.with}: ${o.files.join(', ')}${moreOf(o.files.length, o.count)}`;
}

/** Pairs once each from the rows that carry their overlaps (the status table's footer). */
export function pairsOfRows(rows: readonly { id: string; overlaps?: Overlap[] }[]): OverlapPair[] {
  const out: OverlapPair[] = [];
  for (const r of rows) for (const o of r.overlaps ?? []) if (r.id < o.with) out.push({ workers: [r.id, o.with], files: o.files, count: o.count });
  return out;
}
