/**
 * What one session has spent, read from its record as the agent appends to it: each read takes
 * only the bytes past the last whole line read before (a session of 50 MB is read once, then a
 * few KB a turn), so reading every worker's cost costs the daemon next to nothing
 * (bench/cost-read.ts). The file is the worker's: opened as a stranger's and kept open only while
 * it is still that file (io/fs/untrusted-handle.ts); only numbers and model names are kept. A line that is not a record of the agent's format is
 * skipped and counted, never guessed at.
 */
import { entryOf, keepUntrustedFile, readKept, stillKept, type KeptFile } from '../../fs/untrusted-handle.ts';
import type { LineUsage, SessionFormat, TokenCounts } from './types.ts';

/** The most read in one go (a first read of a long session takes several). */
export const TALLY_CHUNK = 8 * 1024 * 1024;
/** A line longer than this is not a usage record (a pasted file, an image): skipped whole. */
const MAX_LINE = 4 * 1024 * 1024;

export interface ModelDay {
  model: string;
  day: string;
}

export interface UsageTally {
  readonly file: string;
  readonly format: SessionFormat;
  /** Bytes read: always just past a newline. */
  offset: number;
  read: (line: string) => LineUsage;
  /** Records the agent may write again, by key: their counts as last written. */
  keyed: Map<string, ModelDay & { counts: Omit<TokenCounts, 'messages'> }>;
  /** Totals per model and day (`model\u0000day`). */
  sums: Map<string, ModelDay & TokenCounts>;
  /** Lines that were not records of the format (cut, not JSON, a usage of the wrong shape). */
  skipped: number;
  /** Skipping a line longer than MAX_LINE: the bytes up to its newline are not records. */
  skippingLongLine: boolean;
  /** The record kept open between reads (io/fs/untrusted-handle.ts), or null. */
  kept: KeptFile | null;
}

export function newTally(format: SessionFormat, file: string): UsageTally {
  return { file, format, offset: 0, read: format.usageReader(), keyed: new Map(), sums: new Map(), skipped: 0, skippingLongLine: false, kept: null };
}

const zero = (): Omit<TokenCounts, 'messages'> => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 });

function sumOf(t: UsageTally, model: string, day: string): ModelDay & TokenCounts {
  const k = `${model}\u0000${day}`;
  let s = t.sums.get(k);
  if (!s) t.sums.set(k, (s = { model, day, ...zero(), messages: 0 }));
  return s;
}

function add(s: TokenCounts, c: Omit<TokenCounts, 'messages'>, sign: 1 | -1): void {
  s.input += sign * c.input;
  s.output += sign * c.output;
  s.cacheRead += sign * c.cacheRead;
  s.cacheWrite += sign * c.cacheWrite;
  s.cacheWrite1h += sign * c.cacheWrite1h;
}

/** One whole line into the tally. */
export function tallyLine(t: UsageTally, line: string): void {
  if (line.trim() === '') return;
  const u = t.read(line);
  if (u === 'none') return;
  if (u === 'malformed') {
    t.skipped++;
    return;
  }
  if (u.key !== undefined) {
    const was = t.keyed.get(u.key);
    if (was) add(sumOf(t, was.model, was.day), was.counts, -1);
    else sumOf(t, u.model, u.day).messages++;
    // A reply written again moves its message with it when its model or day changed.
    if (was && (was.model !== u.model || was.day !== u.day)) {
      sumOf(t, was.model, was.day).messages--;
      sumOf(t, u.model, u.day).messages++;
    }
    t.keyed.set(u.key, { model: u.model, day: u.day, counts: u.counts });
  } else {
    sumOf(t, u.model, u.day).messages++;
  }
  add(sumOf(t, u.model, u.day), u.counts, 1);
}

export type TallyRead = { kind: 'read'; changed: boolean; more: boolean } | { kind: 'absent' } | { kind: 'refused'; reason: string };

/** Handles kept open at most, across all tallies (a fleet larger than this reads the rest by opening each time). */
export const MAX_KEPT = 256;
let keptCount = 0;

/** Lets go of a tally's handle (its worker's launch ended, or the daemon stops). */
export function releaseTally(t: UsageTally): void {
  if (!t.kept) return;
  void t.kept.fh.close().catch(() => undefined);
  t.kept = null;
  keptCount--;
}

/** The bytes past the tally's offset (at most `max`) and the file's size, through its kept handle, opened (again) when needed. */
async function readPast(t: UsageTally, max: number): Promise<{ kind: 'read'; bytes: Buffer; size: number } | { kind: 'absent' } | { kind: 'refused'; reason: string }> {
  let st = entryOf(t.file);
  if (!stillKept(st, t.kept)) {
    releaseTally(t);
    const opened = await keepUntrustedFile(t.file);
    if (opened.kind === 'absent') return { kind: 'absent' };
    if (opened.kind === 'refused') return { kind: 'refused', reason: opened.reason };
    t.kept = opened.kept;
    keptCount++;
    st = entryOf(t.file);
    if (!st) return { kind: 'absent' };
  }
  const size = st!.size;
  const bytes = size > t.offset ? await readKept(t.kept!, t.offset, Math.min(max, size - t.offset)) : Buffer.alloc(0);
  // Over the cap, the handle is not kept: the next read opens the file again.
  if (keptCount > MAX_KEPT) releaseTally(t);
  if (bytes === null) return { kind: 'refused', reason: `${t.file} could not be read in time` };
  return { kind: 'read', bytes, size };
}

/**
 * Reads what the agent appended since the last read (at most `chunk` bytes; `more` says whether
 * more is there). A file shorter than what was read was written anew: its tally starts again.
 */
export async function readNewUsage(t: UsageTally, chunk = TALLY_CHUNK): Promise<TallyRead> {
  // Nothing appended since (the common case of a sweep): one lstat, nothing read.
  const now = entryOf(t.file);
  if (now && stillKept(now, t.kept) && now.size === t.offset) return { kind: 'read', changed: false, more: false };
  let max = chunk;
  for (;;) {
    const r = await readPast(t, max);
    if (r.kind !== 'read') return r;
    if (r.size < t.offset) {
      releaseTally(t);
      Object.assign(t, newTally(t.format, t.file));
      return readNewUsage(t, chunk);
    }
    const text = r.bytes.toString('utf8');
    const truncated = r.size - t.offset > r.bytes.length;
    const end = text.lastIndexOf('\n');
    if (end < 0) {
      // No whole line yet: the agent is still writing it (wait), or it is longer than this read.
      if (!truncated) return { kind: 'read', changed: false, more: false };
      if (max < MAX_LINE) {
        max = Math.min(MAX_LINE, max * 4);
        continue;
      }
      // Longer than any usage record: skipped whole, never read as two.
      t.offset += r.bytes.length;
      t.skippingLongLine = true;
      return { kind: 'read', changed: false, more: true };
    }
    return { kind: 'read', changed: consume(t, text.slice(0, end + 1)), more: truncated };
  }
}

/** Whole lines into the tally; whether the totals moved. */
function consume(t: UsageTally, whole: string): boolean {
  const before = t.skipped + sumsTotal(t);
  const lines = whole.split('\n');
  lines.pop();
  for (const [i, line] of lines.entries()) {
    if (i === 0 && t.skippingLongLine) {
      t.skippingLongLine = false;
      t.skipped++;
      continue;
    }
    if (line.length > MAX_LINE) {
      t.skipped++;
      continue;
    }
    tallyLine(t, line);
  }
  t.offset += Buffer.byteLength(whole);
  return t.skipped + sumsTotal(t) !== before;
}

function sumsTotal(t: UsageTally): number {
  let n = 0;
  for (const s of t.sums.values()) n += s.input + s.output + s.cacheRead + s.cacheWrite + s.messages;
  return n;
}

/** The tally's rows that hold anything. */
export function tallyRows(t: UsageTally): (ModelDay & TokenCounts)[] {
  return [...t.sums.values()].filter((s) => s.messages > 0 || s.input + s.output + s.cacheRead + s.cacheWrite > 0);
}
