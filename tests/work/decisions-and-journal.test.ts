/**
 * Held decisions and the away journal on a real SQLite file: a decision key is stable for the
 * same worker and question; a parked report's question and options are read; answering or
 * declining closes it once; the journal is append-only and a damaged entry is reported by its
 * seq, never reconstructed.
 */
import { describe, expect, it } from 'vitest';
import { useWorkDb } from './work-fixture.ts';
import { decisionKey } from '../../persistence/work/decision-store.ts';
import { parseWaitingOn } from '../../io/brief/report-question.ts';
import { awayAccount, awayAccountIfUnread } from '../../daemon/work/away-account.ts';

const workDb = useWorkDb();

describe('held decisions', () => {
  it('the key is derived from worker and question: stable, slug-shaped, different for another worker', () => {
    const k = decisionKey('w1', 'Which database should we use?');
    expect(k).toBe(decisionKey('w1', '  Which   database should we use? '));
    expect(k).toMatch(/^w1-which-database-should-we-use-[0-9a-f]{6}$/);
    expect(decisionKey('w2', 'Which database should we use?')).not.toBe(k);
  });

  it('the Waiting on line and the options below it are read from the report', () => {
    const r = parseWaitingOn('# Report\n\nSome text.\n\nWaiting on: Ship on Friday or Monday?\n- Friday\n- Monday (safer)\n\n## Next\n- not an option\n');
    expect(r).toEqual({ question: 'Ship on Friday or Monday?', options: ['Friday', 'Monday (safer)'] });
    expect(parseWaitingOn('**Waiting on**: Go?\n')).toEqual({ question: 'Go?', options: [] });
    expect(parseWaitingOn('# Report\nAll done.\n')).toBeNull();
  });

  it('ensure finds the existing record; answer closes it once and leaves it pending delivery', () => {
    const db = workDb('decisions');
    const d = db.stores.decisions;
    const first = d.ensure({ worker: 'w1', project: 'shop', question: 'A or B?', options: ['A', 'B'] });
    expect(first.created).toBe(true);
    expect(d.ensure({ worker: 'w1', project: 'shop', question: 'A or B?', options: [] }).created).toBe(false);
    expect(d.open().map((x) => x.key)).toEqual([first.decision.key]);
    const answered = d.answer(first.decision.key, 'A');
    expect(answered).toMatchObject({ state: 'answered', answer: 'A', delivery: 'pending' });
    expect(() => d.requireOpen(first.decision.key)).toThrow(/already answered/);
    expect(() => d.requireOpen('nope')).toThrow(/no decision "nope"/);
    // The worker's pointer stays: its latest decision, answered or not.
    expect(d.latestOf('w1')?.key).toBe(first.decision.key);
    expect(d.markDelivered(first.decision.key)).toMatchObject({ delivery: 'sent' });
    const declined = d.ensure({ worker: 'w1', project: 'shop', question: 'C?', options: [] });
    expect(d.decline(declined.decision.key, 'not needed')).toMatchObject({ state: 'declined', delivery: null });
    expect(d.open()).toEqual([]);
  });

  it('open decisions list oldest first', () => {
    let t = 1000;
    const db = workDb('decisions-order', () => t);
    const d = db.stores.decisions;
    const a = d.ensure({ worker: 'w2', project: null, question: 'first?', options: [] }).decision.key;
    t = 2000;
    const b = d.ensure({ worker: 'w1', project: null, question: 'second?', options: [] }).decision.key;
    expect(d.open().map((x) => x.key)).toEqual([a, b]);
  });
});

describe('away journal', () => {
  it('away on/off keeps since on a refresh; the account lists what waits, landed and broke', () => {
    const db = workDb('away');
    const a = db.stores.away;
    const on = a.on('lunch');
    expect(on.refreshed).toBe(false);
    expect(a.on(null).state.since).toBe(on.state.since);
    a.append({ kind: 'landed', text: 'w1 landed', worker: 'w1', pr: 'https://example.invalid/pr/2' });
    a.append({ kind: 'crashed', text: 'w2 ended unexpectedly', worker: 'w2' });
    db.stores.decisions.ensure({ worker: 'w3', project: 'shop', question: 'Delete the old table?', options: ['yes', 'no'] });
    const fleet = { views: () => [] };
    expect(awayAccountIfUnread(db.stores, fleet)).not.toBeNull();
    const acc = awayAccount(db.stores, fleet, { markRead: true });
    expect(acc.summary).toBe('2 things were recorded while you were away. One thing waits on you.');
    expect(acc.landed).toEqual([{ worker: 'w1', text: 'w1 landed', pr: 'https://example.invalid/pr/2' }]);
    expect(acc.broke).toEqual([{ worker: 'w2', text: 'w2 ended unexpectedly' }]);
    expect(acc.decisions.map((d) => d.question)).toEqual(['Delete the old table?']);
    a.off();
    // Read now: the digest has nothing to add until something new is written.
    expect(awayAccountIfUnread(db.stores, fleet)).toBeNull();
  });

  it('a damaged entry is reported by its seq and never reconstructed', () => {
    const db = workDb('away-damaged');
    const a = db.stores.away;
    const good = a.append({ kind: 'note', text: 'fine' });
    const bad = a.append({ kind: 'blocked', text: 'w1 blocked', worker: 'w1', question: 'Allow rm?' });
    db.stores.db.prepare('UPDATE away_journal SET body_json = ? WHERE seq = ?').run('{"kind":"blocked","text":"w1 blo', bad);
    const read = a.read();
    expect(read.find((e) => e.seq === good)).toMatchObject({ damaged: false, text: 'fine' });
    expect(read.find((e) => e.seq === bad)).toEqual({ seq: bad, at: expect.any(Number), damaged: true, problem: expect.stringMatching(/checksum/) });
    const acc = awayAccount(db.stores, { views: () => [] });
    expect(acc.damaged).toEqual([{ seq: bad, problem: expect.any(String) }]);
    expect(acc.summary).toMatch(/1 journal entry is damaged and not shown \(nothing was reconstructed\)/);
    expect(JSON.stringify(acc)).not.toContain('Allow rm?');
  });

  it('the journal has no way to change or delete an entry (append-only API)', () => {
    const db = workDb('away-append-only');
    const api = Object.keys(db.stores.away).sort();
    expect(api).toEqual(['append', 'lastSeq', 'markRead', 'off', 'on', 'read', 'state']);
  });
});
