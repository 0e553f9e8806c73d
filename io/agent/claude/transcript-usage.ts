/**
 * Token usage from a Claude Code session transcript (JSONL, one entry a line). Assistant entries
 * carry message.usage; one API message is written as several entries (one per content block)
 * with the same id and usage, so usage is counted once per message id. Only numbers are read:
 * the transcript's text never leaves this function.
 */
import { isAbsolute } from 'node:path';
import { readUntrustedFile } from '../../fs/untrusted-file.ts';

export type { TokenUsage } from '../../../contract/methods.ts';
import type { TokenUsage } from '../../../contract/methods.ts';

/** Transcripts past this are not read whole (a long session's usage is then not shown). */
const MAX_BYTES = 64 * 1024 * 1024;

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

export function usageOfTranscript(text: string): TokenUsage {
  const perMessage = new Map<string, { usage: Record<string, unknown>; cost: number | null }>();
  let anon = 0;
  for (const line of text.split('\n')) {
    if (!line.includes('"usage"')) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const message = entry.message as Record<string, unknown> | undefined;
    const usage = message?.usage;
    if (!usage || typeof usage !== 'object') continue;
    const key = typeof message?.id === 'string' ? message.id : typeof entry.requestId === 'string' ? entry.requestId : `#${anon++}`;
    perMessage.set(key, { usage: usage as Record<string, unknown>, cost: typeof entry.costUSD === 'number' ? entry.costUSD : null });
  }
  const out: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0, costUSD: null, messages: perMessage.size };
  for (const { usage, cost } of perMessage.values()) {
    out.input += n(usage.input_tokens);
    out.output += n(usage.output_tokens);
    out.cacheRead += n(usage.cache_read_input_tokens);
    out.cacheCreation += n(usage.cache_creation_input_tokens);
    if (cost !== null) out.costUSD = (out.costUSD ?? 0) + cost;
  }
  return out;
}

/**
 * Usage of the transcript at `path`, or null when it is not a readable .jsonl file. The path comes
 * from a hook payload, i.e. from the worker (issue 37): the file is opened without following a
 * link or blocking on a FIFO, must be a regular file of this user's, and is not read past MAX_BYTES.
 */
export async function readTranscriptUsage(path: string): Promise<TokenUsage | null> {
  if (!isAbsolute(path) || !path.endsWith('.jsonl')) return null;
  const r = await readUntrustedFile(path, { maxBytes: MAX_BYTES, timeoutMs: 10_000 });
  if (r.kind !== 'read' || r.truncated) return null;
  return usageOfTranscript(r.text);
}
