/**
 * The usage pulse (reference §7.12): the account's usage windows, read from a configured source
 * command's JSON (argv, never a shell string; bounded in time), never from credentials or
 * transcripts. Only the session (5-hour) and weekly windows count; the nearer one (higher
 * percentage) is shown. Dispatch refuses at >= 90 % on a real reading and warns-and-proceeds
 * when there is no reading (fail open). Nothing is written except the source setting itself.
 *
 * Accepted shapes (recorded outputs in tests/fixtures/usage/):
 *  - quota-axi style: {"account": "...", "windows": [{"id": "five_hour", "used_percent": 42, "resets_at": "..."}, ...]}
 *  - Claude Code's usage endpoint style: {"five_hour": {"utilization": 42, "resets_at": "..."}, "seven_day": {...}, ...}
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, chmodSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../contract/errors.ts';

export const REFUSE_AT = 90;
const SESSION_IDS = new Set(['five_hour', 'session', '5h', 'five-hour']);
const WEEKLY_IDS = new Set(['seven_day', 'weekly', 'week', '7d', 'seven-day']);

export type { UsageReading, UsageWindow } from '../../contract/methods.ts';
import type { UsageReading, UsageWindow } from '../../contract/methods.ts';


function windowOf(id: string, pctRaw: unknown, resets: unknown, now: number): UsageWindow | null | 'unknown' {
  const kind = SESSION_IDS.has(id) ? 'session' : WEEKLY_IDS.has(id) ? 'weekly' : null;
  if (!kind) return 'unknown';
  const pct = typeof pctRaw === 'number' ? pctRaw : typeof pctRaw === 'string' ? Number(pctRaw) : NaN;
  if (!Number.isFinite(pct)) return null;
  const resetsAt = typeof resets === 'string' && resets ? resets : null;
  // A reset already in the past means that window's number is over.
  if (resetsAt && Number.isFinite(Date.parse(resetsAt)) && Date.parse(resetsAt) <= now) return null;
  return { id, window: kind, percent: Math.max(0, Math.min(100, pct)), resetsAt };
}

export function parseUsage(text: string, now = Date.now()): Omit<UsageReading, 'source'> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, nearest: null, windows: [], account: null, problem: `the usage source did not print JSON (${(err as Error).message})`, ignored: [] };
  }
  if (!raw || typeof raw !== 'object') return { ok: false, nearest: null, windows: [], account: null, problem: 'the usage source printed no object', ignored: [] };
  const o = raw as Record<string, unknown>;
  const entries: [string, unknown, unknown][] = [];
  if (Array.isArray(o.windows)) {
    for (const w of o.windows as Record<string, unknown>[]) entries.push([String(w?.id ?? ''), w?.used_percent ?? w?.percent ?? w?.utilization, w?.resets_at]);
  } else {
    for (const [id, w] of Object.entries(o)) if (w && typeof w === 'object') entries.push([id, (w as Record<string, unknown>).utilization ?? (w as Record<string, unknown>).used_percent, (w as Record<string, unknown>).resets_at]);
  }
  const windows: UsageWindow[] = [];
  const ignored: string[] = [];
  for (const [id, pct, resets] of entries) {
    const w = windowOf(id, pct, resets, now);
    if (w === 'unknown') ignored.push(id);
    else if (w) windows.push(w);
  }
  const nearest = windows.reduce<UsageWindow | null>((a, w) => (!a || w.percent > a.percent ? w : a), null);
  const account = typeof o.account === 'string' ? o.account : null;
  return { ok: nearest !== null, nearest, windows, account, problem: nearest ? null : 'no session or weekly window was reported', ignored };
}

export function usageSourceFile(home: string) {
  const path = join(home, 'usage-source.json');
  return {
    path,
    get(): string[] | null {
      if (!existsSync(path)) return null;
      try {
        const v = JSON.parse(readFileSync(path, 'utf8')) as { argv?: unknown };
        return Array.isArray(v.argv) && v.argv.every((a) => typeof a === 'string') && v.argv.length > 0 ? (v.argv as string[]) : null;
      } catch {
        return null;
      }
    },
    set(argv: string[]) {
      if (argv.length === 0 || !argv[0]) throw new UsageError('bad-usage-source', 'hand usage source takes the command and its arguments, e.g. hand usage source quota-axi --json.');
      writeFileSync(path, `${JSON.stringify({ argv })}\n`, { mode: 0o600 });
      chmodSync(path, 0o600);
    },
    clear() {
      if (existsSync(path)) unlinkSync(path);
    },
  };
}

export function readUsage(argv: string[] | null, opts: { timeoutMs?: number; now?: () => number } = {}): Promise<UsageReading> {
  if (!argv) return Promise.resolve({ ok: false, nearest: null, windows: [], account: null, source: null, problem: 'no usage source is configured (hand usage source <command…>)', ignored: [] });
  const source = argv.join(' ');
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { timeout: opts.timeoutMs ?? 5000, maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) {
        resolve({ ok: false, nearest: null, windows: [], account: null, source, problem: `the usage source failed: ${err.message.split('\n')[0]}`, ignored: [] });
        return;
      }
      resolve({ ...parseUsage(stdout, (opts.now ?? Date.now)()), source });
    });
  });
}

/** One line, as §7.12's pulse: `<pct>% used (<window>, <account>)`, or `usage unknown (<why>)`. */
export function usageLine(r: UsageReading): string {
  if (!r.nearest) return `usage unknown (${r.problem})`;
  return `${Math.round(r.nearest.percent)}% used (${r.nearest.window}${r.account ? `, ${r.account}` : ''}${r.nearest.resetsAt ? `, resets ${r.nearest.resetsAt}` : ''})`;
}
