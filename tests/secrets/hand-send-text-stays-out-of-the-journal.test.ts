/**
 * Rule: what `hand send` typed stays out of fleet.db (issue 24 item 7): a secret sent to a worker
 * stayed in the journal, and so in every backup, for good. The journal row keeps the send's
 * length and a sha256 prefix only.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { settledMockWorker, useDaemonWorld } from '../helpers/daemon-world.ts';

const newWorld = useDaemonWorld();
const SECRET = 'the-password-is-hunter2-and-sk-live-4242';

/** Every cell of every table in the database that contains `needle`, as table.column. */
function cellsContaining(dbPath: string, needle: string): string[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const hits: string[] = [];
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all() as Record<string, unknown>[]) {
        for (const [col, v] of Object.entries(row)) if (String(v).includes(needle)) hits.push(`${name}.${col}`);
      }
    }
    return hits;
  } finally {
    db.close();
  }
}

describe('hand send text stays out of the journal', () => {
  it('the journal row of a send has its length and hash, never its text; the stored screen reading drops its echo', async () => {
    const w = await newWorld('send-journal');
    await settledMockWorker(w, 'w1', 'Say hello.');
    const sent = await w.call('send', { id: 'w1', text: SECRET });
    expect(sent.sent).toBe(true);
    await w.call('wait', { id: 'w1', until: 'settled', timeoutMs: 30_000 });
    expect(cellsContaining(w.paths.db, SECRET)).toEqual([]);
    expect(cellsContaining(w.paths.db, 'hunter2')).toEqual([]);
    const hash = createHash('sha256').update(SECRET).digest('hex').slice(0, 16);
    expect(cellsContaining(w.paths.db, hash).length, 'the send is still journaled, by its hash').toBeGreaterThan(0);
    await w.call('stop', { id: 'w1', timeoutMs: 15_000 });
  });
});
