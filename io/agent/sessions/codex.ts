/**
 * Codex CLI's session record (0.169.0): one JSONL "rollout" per session,
 * `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<local time>-<session id>.jsonl`, whose first line is
 * `session_meta` with `payload.id` and `payload.cwd`. Usage: each `event_msg` of type
 * `token_count` carries `info.total_token_usage`, the session's running total
 * (`input_tokens` includes `cached_input_tokens`; `output_tokens` includes reasoning;
 * `cache_write_input_tokens` where the provider reports it). Totals, not increments, because
 * Codex writes a token_count again with the same total (a rate-limit update): the increase since
 * the last one is what was spent, on that line's day, by the model the latest `turn_context` names.
 * Older releases (0.100 …) write the same lines without `cache_write_input_tokens`.
 */
import { basename, join } from 'node:path';
import { count, dayOf, isRecord, type LineUsage, type SessionFormat } from './types.ts';
import { newest, regularFiles, subdirectories } from './list-files.ts';

const ROLLOUT = /^rollout-.+\.jsonl$/;
/** How many day directories are looked in, newest first (a worker's sessions are recent). */
const DAYS_LOOKED_AT = 60;

const desc = (names: string[]) => [...names].sort().reverse();

export const codexSessions: SessionFormat = {
  label: 'Codex CLI',
  async candidates(configDir, _cwd, max) {
    const root = join(configDir, 'sessions');
    const days: string[] = [];
    for (const y of desc(await subdirectories(root))) {
      for (const m of desc(await subdirectories(join(root, y)))) {
        for (const d of desc(await subdirectories(join(root, y, m)))) {
          days.push(join(root, y, m, d));
          if (days.length >= DAYS_LOOKED_AT) break;
        }
        if (days.length >= DAYS_LOOKED_AT) break;
      }
      if (days.length >= DAYS_LOOKED_AT) break;
    }
    const files = [];
    for (const dir of days) files.push(...(await regularFiles(dir, (n) => ROLLOUT.test(n))));
    return newest(files, max);
  },
  identity(head, file) {
    const first = head.split('\n', 1)[0] ?? '';
    let entry: unknown;
    try {
      entry = JSON.parse(first);
    } catch {
      return null;
    }
    if (!isRecord(entry) || entry.type !== 'session_meta' || !isRecord(entry.payload)) return null;
    const p = entry.payload;
    const id = typeof p.id === 'string' ? p.id : typeof p.session_id === 'string' ? p.session_id : null;
    if (!id || !basename(file).endsWith(`-${id}.jsonl`)) return id ? { sessionId: `${id} (not the id its file name ends with)`, cwd: null } : null;
    return { sessionId: id, cwd: typeof p.cwd === 'string' ? p.cwd : null };
  },
  ranIn: (id, worktree) => id.cwd === worktree,
  usageReader() {
    let model = 'unknown';
    let last = { input: 0, cached: 0, cacheWrite: 0, output: 0 };
    return (line): LineUsage => {
      const isTurn = line.includes('"turn_context"');
      if (!isTurn && !line.includes('"token_count"')) return 'none';
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        return 'malformed';
      }
      if (!isRecord(entry) || !isRecord(entry.payload)) return 'none';
      const p = entry.payload;
      if (entry.type === 'turn_context') {
        if (typeof p.model === 'string' && p.model !== '') model = p.model;
        return 'none';
      }
      if (entry.type !== 'event_msg' || p.type !== 'token_count') return 'none';
      // A rate-limit update without usage: nothing spent.
      if (p.info === null || p.info === undefined) return 'none';
      if (!isRecord(p.info) || !isRecord(p.info.total_token_usage)) return 'malformed';
      const t = p.info.total_token_usage;
      const now = { input: count(t.input_tokens), cached: count(t.cached_input_tokens), cacheWrite: count(t.cache_write_input_tokens), output: count(t.output_tokens) };
      // A total below the last one: the count started again (a resumed session), from zero.
      const restarted = now.input < last.input || now.output < last.output;
      const base = restarted ? { input: 0, cached: 0, cacheWrite: 0, output: 0 } : last;
      last = now;
      const cached = Math.max(0, now.cached - base.cached);
      const cacheWrite = Math.max(0, now.cacheWrite - base.cacheWrite);
      // Cache reads are part of input_tokens (the Responses API's own rule); writes are counted beside it.
      const input = Math.max(0, now.input - base.input - cached);
      const output = Math.max(0, now.output - base.output);
      if (input + cached + cacheWrite + output === 0) return 'none';
      return { model, day: dayOf(entry.timestamp, Date.now()), counts: { input, output, cacheRead: cached, cacheWrite, cacheWrite1h: 0 } };
    };
  },
};
