/**
 * Rule (issue 41 item 4, faults and bad input): what a session spent is read from its agent's own
 * record, once per reply, and priced at the one price table. A record with fields it does not know
 * is read for the ones it knows; a model missing from the table keeps its tokens and its cost is
 * "unknown" (never a guess); a malformed line is skipped and counted. A record read in pieces, as
 * the agent appends to it (a line cut at a read's end included), counts the same as read whole.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSessions } from '../../io/agent/sessions/claude.ts';
import { codexSessions } from '../../io/agent/sessions/codex.ts';
import { geminiSessions } from '../../io/agent/sessions/gemini.ts';
import { newTally, readNewUsage, releaseTally, tallyRows, type UsageTally } from '../../io/agent/sessions/usage-tally.ts';
import { costOfRows } from '../../actors/usage/cost-of.ts';
import { costText } from '../../contract/cost-words.ts';
import { priceOf } from '../../io/agent/price-table.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();
const line = (r: unknown) => `${JSON.stringify(r)}\n`;

/** One Claude Code reply as 2.1.332 writes it: a line per content block, each with the same id and usage. */
function claudeReply(id: string, model: string, usage: Record<string, unknown>, blocks = 2): string {
  let out = '';
  for (let i = 0; i < blocks; i++) out += line({ type: 'assistant', message: { id, model, usage, content: [{ type: 'text', text: `block ${i}` }] }, timestamp: '2026-12-06T04:22:42.588Z', sessionId: 's' });
  return out;
}

/** Reads to the end; the handle is let go after (the next read opens the file again, through the checks). */
async function readAll(t: UsageTally, chunk?: number): Promise<void> {
  try {
    for (let i = 0; i < 1000; i++) {
      const r = await readNewUsage(t, chunk);
      if (r.kind !== 'read' || !r.more) return;
    }
  } finally {
    releaseTally(t);
  }
}

describe("a session's cost is read from its own record, never guessed", () => {
  it('Claude Code: a reply written as several lines counts once; unknown fields are ignored; a malformed line is skipped and counted; an unpriced model costs "unknown"', async () => {
    const file = join(tempDir('cost'), 's.jsonl');
    writeFileSync(
      file,
      claudeReply('msg_1', 'claude-opus-5-5', { input_tokens: 1_000_000, output_tokens: 100_000, cache_read_input_tokens: 2_000_000, cache_creation_input_tokens: 500_000, cache_creation: { ephemeral_1h_input_tokens: 100_000 }, some_future_field: { x: 1 } }) +
        '{"type":"assistant","message":{"id":"msg_cut","usage":{"input_tok\n' +
        claudeReply('msg_2', 'claude-fable-9', { input_tokens: 10, output_tokens: 20 }, 1) +
        line({ type: 'user', message: { content: 'usage: not a record of usage' } }),
    );
    const t = newTally(claudeSessions, file);
    await readAll(t);
    expect(t.skipped).toBe(1);
    const cost = costOfRows(tallyRows(t));
    expect(cost).toMatchObject({ input: 1_000_010, output: 100_020, cacheRead: 2_000_000, cacheWrite: 500_000, messages: 2, unpriced: ['claude-fable-9'] });
    // Opus 5.5 at $4 in, $20 out, $0.20 cache read, $5 5-minute and $8 1-hour cache writes a million.
    expect(cost.usd).toBeCloseTo(4 + 2 + 0.4 + 0.4 * 5 + 0.1 * 8, 9);
    expect(cost.byModel.find((m) => m.model === 'claude-fable-9')).toMatchObject({ input: 10, output: 20, usd: null });
    expect(costText(cost)).toBe(`$${cost.usd!.toFixed(2)} + unknown for claude-fable-9`);
  });

  it('read in pieces as it is appended (a line cut at a read\'s end waits for its newline), it counts what a whole read counts', async () => {
    const dir = tempDir('cost-pieces');
    const text = Array.from({ length: 30 }, (_, i) => claudeReply(`msg_${i}`, 'claude-opus-5-5', { input_tokens: i + 1, output_tokens: 2 * i, cache_read_input_tokens: 7 }, 3)).join('');
    const whole = join(dir, 'whole.jsonl');
    writeFileSync(whole, text);
    const w = newTally(claudeSessions, whole);
    await readAll(w);
    const grown = join(dir, 'grown.jsonl');
    writeFileSync(grown, '');
    const g = newTally(claudeSessions, grown);
    for (let at = 0; at < text.length; at += 97) {
      appendFileSync(grown, text.slice(at, at + 97));
      await readAll(g, 211);
    }
    expect(tallyRows(g)).toEqual(tallyRows(w));
    expect(g.skipped).toBe(0);
    expect(costOfRows(tallyRows(g)).messages).toBe(30);
  });

  it('Codex CLI: the increase of its running total, cached tokens apart from input; a total written again is not counted twice', async () => {
    const file = join(tempDir('cost-codex'), 'rollout.jsonl');
    const count = (input: number, cached: number, output: number) => line({ timestamp: '2026-12-06T04:22:46.366Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output } }, rate_limits: {} } });
    writeFileSync(
      file,
      line({ type: 'session_meta', payload: { id: 'x', cwd: '/w' } }) +
        line({ type: 'turn_context', payload: { model: 'gpt-5-codex' } }) +
        count(100, 0, 10) +
        count(100, 0, 10) + // the same total again (a rate-limit update)
        line({ type: 'event_msg', payload: { type: 'token_count', info: null, rate_limits: {} } }) +
        count(300, 150, 25) +
        line({ type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: 'garbled' } } }),
    );
    const t = newTally(codexSessions, file);
    await readAll(t);
    expect(t.skipped).toBe(1);
    const cost = costOfRows(tallyRows(t));
    expect(cost).toMatchObject({ input: 150, cacheRead: 150, output: 25, cacheWrite: 0, messages: 2, unpriced: [] });
    expect(cost.usd).toBeCloseTo((150 * 1.25 + 150 * 0.125 + 25 * 10) / 1e6, 12);
  });

  it('Gemini CLI: a message written again when its tokens arrive replaces itself; thoughts are output; no Gemini price is guessed', async () => {
    const file = join(tempDir('cost-gemini'), 'session.jsonl');
    const msg = (tokens: unknown) => line({ id: 'g1', type: 'gemini', model: 'gemini-2.5-pro', content: 'hi', timestamp: '2026-12-06T04:22:46.000Z', tokens });
    writeFileSync(file, line({ sessionId: 's', projectHash: 'h' }) + msg(null) + msg({ input: 120, output: 30, cached: 20, thoughts: 5, tool: 0, total: 155 }) + msg({ input: 120, output: 30, cached: 20, thoughts: 5, tool: 0, total: 155 }));
    const t = newTally(geminiSessions, file);
    await readAll(t);
    const cost = costOfRows(tallyRows(t));
    expect(cost).toMatchObject({ input: 100, cacheRead: 20, output: 35, messages: 1, usd: null, unpriced: ['gemini-2.5-pro'] });
  });

  it('the price table finds a model by its dated or context-marked id, and nothing by a neighbour\'s', () => {
    expect(priceOf('claude-opus-4-5-20251101')).toBe(priceOf('claude-opus-4-5'));
    expect(priceOf('claude-opus-5-5[1m]')).toBe(priceOf('claude-opus-5-5'));
    expect(priceOf('claude-opus-5-6')).toBeNull();
    expect(priceOf('gpt-5-codex-mini')).toBeNull();
    expect(priceOf('constructor')).toBeNull();
  });
});
