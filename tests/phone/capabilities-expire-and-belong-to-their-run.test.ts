/**
 * A capability's own rules, on a clock the test moves (issue 42 item 2): it expires (15 minutes
 * unless HAND_PHONE_CAPABILITY_TTL_MS says otherwise), belongs to the daemon run that made it (a
 * restarted daemon with the same key refuses it as from an earlier run, not as a forgery), a
 * capability signed with another key is a forgery, and its key is a 0600 file reused across
 * runs. ATTACKS: each use here is refused by `check` before anything could be spent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/temp.ts';
import { createPhoneLinks } from '../../actors/phone/phone-links.ts';
import { CAPABILITY_KEY_FILE, CAPABILITY_TTL_MS } from '../../actors/phone/capability.ts';
import { parsePublicUrl } from '../../actors/phone/public-url.ts';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';
import { createSessions } from '../../actors/review/sessions.ts';
import { PHONE_SESSION_MS } from '../../actors/review/page-gate.ts';

const homes = [makeTempDir('phone-caps-a'), makeTempDir('phone-caps-b')];
afterAll(() => homes.forEach((h) => h.cleanup()));

const blocked = {
  id: 'w1',
  dialog: { fingerprint: '0123456789abcdef', reason: 'question', question: 'Which?', numbered: true, cursor: 1, textField: false, options: [{ n: 1, label: 'Yes' }, { n: 2, label: 'No' }] },
} as unknown as WorkerViewLike;

const capOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('capabilities expire and belong to their run', () => {
  it('expires after its time, is refused by the next run as from an earlier one, and by another key as forged', () => {
    let t = 1_000_000;
    const home = homes[0]!.path;
    const links = createPhoneLinks({ home, env: {}, now: () => t });
    expect(links.actionsFor(blocked)).toBeNull();
    links.setPublicUrl(parsePublicUrl('https://phone.example.test'));
    const made = links.actionsFor(blocked)!;
    expect(made.actions.map((a) => [a.label, a.method])).toEqual([['1. Yes', 'POST'], ['2. No', 'POST']]);
    const cap = capOf(made.actions[0]!.url);
    expect(statSync(join(home, CAPABILITY_KEY_FILE)).mode & 0o777).toBe(0o600);

    t += CAPABILITY_TTL_MS - 1;
    expect(codeOf(() => links.check('w1', cap))).toBe('accepted');
    t += 1;
    expect(codeOf(() => links.check('w1', cap))).toBe('capability-expired');

    // The same state directory, a new run (the key file is read again, the run id is new).
    const fresh = makeLinksAt(home, t);
    expect(codeOf(() => fresh.check('w1', capOf(made.view)))).toBe('capability-from-an-earlier-run');
    // Another state directory's key: not ours.
    const stranger = makeLinksAt(homes[1]!.path, t);
    expect(codeOf(() => stranger.check('w1', capOf(made.view)))).toBe('capability-forged');
  });

  it('a shorter lifetime comes from HAND_PHONE_CAPABILITY_TTL_MS', () => {
    let t = 5_000;
    const links = createPhoneLinks({ home: homes[1]!.path, env: { HAND_PHONE_CAPABILITY_TTL_MS: '60000' }, now: () => t });
    links.setPublicUrl(parsePublicUrl('https://phone.example.test'));
    const cap = capOf(links.actionsFor(blocked)!.actions[1]!.url);
    t += 60_000;
    expect(codeOf(() => links.check('w1', cap))).toBe('capability-expired');
  });
});

describe("a view link's session", () => {
  it("lives an hour however busy, where a sign-in of the person's own lives a day", () => {
    let t = 0;
    const ended: string[] = [];
    const sessions = createSessions({ now: () => t, onEnd: (id, why) => ended.push(`${id === phone.id ? 'phone' : 'own'}:${why}`) });
    const own = sessions.open();
    const phone = sessions.open({ maxAgeMs: PHONE_SESSION_MS });
    expect(PHONE_SESSION_MS).toBe(60 * 60_000);
    t = PHONE_SESSION_MS - 1;
    expect(sessions.find(phone.id)).not.toBeNull();
    t = PHONE_SESSION_MS;
    expect(sessions.find(phone.id)).toBeNull();
    expect(sessions.find(own.id)).not.toBeNull();
    expect(ended).toEqual(['phone:age']);
  });
});

function makeLinksAt(home: string, t: number) {
  return createPhoneLinks({ home, env: {}, now: () => t });
}
