/**
 * `hand doctor`'s notification check: targets whose deliveries failed or are being retried,
 * read from the state database without the daemon (read-only; nothing is written). Only target
 * ids and error texts are shown — never a URL (it may hold a token).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Check } from './doctor.ts';

const require = createRequire(import.meta.url);

export function notificationCheck(home: string): Check | null {
  const dbPath = join(home, 'fleet.db');
  if (!existsSync(dbPath)) return null;
  try {
    const Database = require('better-sqlite3');
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notify_deliveries'").get();
      if (!has) return null;
      const rows = db.prepare("SELECT target_id AS id, COUNT(*) AS n, MAX(last_error) AS err FROM notify_deliveries WHERE state = 'failed' OR (state = 'pending' AND attempts > 0) GROUP BY target_id").all() as { id: string; n: number; err: string | null }[];
      if (rows.length === 0) return { name: 'notifications', ok: true, detail: 'no failing targets' };
      return {
        name: 'notifications', ok: false, optional: true,
        detail: rows.map((r) => `${r.id}: ${r.n} undelivered (${r.err ?? 'unknown error'})`).join('; '),
        fix: 'check the target is up (hand notify test <id>), or remove it (hand notify remove <id>)',
      };
    } finally {
      db.close();
    }
  } catch (err) {
    return { name: 'notifications', ok: false, optional: true, detail: `could not read delivery state: ${(err as Error).message}` };
  }
}
