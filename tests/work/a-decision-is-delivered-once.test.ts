/**
 * A decision is delivered once (issue 21 item 4): `hand decide <key> SQLite` on a live parked
 * worker typed the answer twice into one prompt, because the decide handler's delivery and the
 * work watch's "deliver what is pending" both started one (the watch saw the view the first
 * send produced before the first had claimed the worker). And the log said "not delivered …
 * nothing was sent" about text that was typed. One owner now delivers; its log lines say what
 * happened.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { homePaths } from '../../contract/home.ts';
import { handOk, parkWorkers, useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';

const makeWorld = useCliWorld();

describe('a decision is delivered once', () => {
  it('decide on a live parked worker types the answer once, marks it sent, and no log line denies the typing', async () => {
    const w = await makeWorld('decision-once');
    const ok = handOk(w);
    const { key } = await parkWorkers(ok, w, ['p1']);
    const answer = await ok(['decide', key('p1'), 'SQLite']);
    expect(answer).toMatchObject({ state: 'answered', delivery: 'sent' });
    const screen = await waitFor(async () => {
      const r = await w.hand(['read', 'p1', '--scrollback', '400']);
      return r.stdout.includes('I used SQLite') ? r.stdout : undefined;
    }, { what: 'the reply to the answer on p1', timeoutMs: 45_000 });
    const typed = screen.split(`(decision ${key('p1')})`).length - 1;
    expect(typed, screen).toBe(1);
    expect((await ok(['status', 'p1']))[0].decision).toMatchObject({ key: key('p1'), delivery: 'sent' });
    const log = readFileSync(homePaths(w.home).log, 'utf8');
    const lines = log.split('\n').filter((l) => l.includes(key('p1')));
    expect(lines.filter((l) => l.includes('decision answer delivered')).length, lines.join('\n')).toBe(1);
    expect(lines.filter((l) => /not delivered|nothing was sent/.test(l)), lines.join('\n')).toEqual([]);
  }, 180_000);
});
