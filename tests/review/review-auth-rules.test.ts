/** The review page's guard, rule by rule (actors/review/auth.ts). */
import { describe, expect, it } from 'vitest';
import { statSync, writeFileSync } from 'node:fs';
import { allowedHosts, loadOrCreateToken, refusal, reviewBindAddress, reviewPort, tokenPath, type RequestFacts } from '../../actors/review/auth.ts';
import { makeTempDir } from '../helpers/temp.ts';

const TOKEN = 'a'.repeat(64);
/** The live session the request's cookie named (the server looks it up; page-gate.ts). */
const SESSION = { csrf: 'c'.repeat(64) };
const hosts = allowedHosts('127.0.0.1', 4000);
const good: RequestFacts = { method: 'POST', host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000', secFetchSite: 'same-origin', cookie: `x=1; hand_review=${'d'.repeat(64)}`, tokenHeader: SESSION.csrf };

describe('review page guard', () => {
  it('a same-origin request with a live session and its header token passes', () => {
    expect(refusal(good, SESSION, hosts, true)).toBeNull();
  });
  it('every request needs a live session', () => {
    expect(refusal({ ...good, method: 'GET' }, null, hosts, false)).toMatch(/no valid session/);
  });
  it("a state-changing request also needs the session's own header token, not the standing token", () => {
    expect(refusal({ ...good, tokenHeader: undefined }, SESSION, hosts, true)).toMatch(/x-hand-token/);
    expect(refusal({ ...good, tokenHeader: TOKEN }, SESSION, hosts, true)).toMatch(/x-hand-token/);
    expect(refusal({ ...good, method: 'GET', tokenHeader: undefined }, SESSION, hosts, false)).toBeNull();
  });
  it('a state-changing request must come from the same origin', () => {
    expect(refusal({ ...good, origin: 'http://evil.example' }, SESSION, hosts, true)).toMatch(/foreign Origin/);
    expect(refusal({ ...good, origin: 'http://localhost:4000' }, SESSION, hosts, true)).toMatch(/foreign Origin/);
    expect(refusal({ ...good, origin: undefined }, SESSION, hosts, true)).toMatch(/missing Origin/);
    expect(refusal({ ...good, secFetchSite: 'cross-site' }, SESSION, hosts, true)).toMatch(/cross-site/);
    expect(refusal({ ...good, origin: 'null' }, SESSION, hosts, true)).not.toBeNull();
  });
  it('a Host the page was not bound as is refused (DNS rebinding)', () => {
    expect(refusal({ ...good, host: 'attacker.example:4000', origin: 'http://attacker.example:4000' }, SESSION, hosts, true)).toMatch(/unexpected Host/);
    expect(refusal({ ...good, host: '127.0.0.1:4001' }, SESSION, hosts, false)).toMatch(/unexpected Host/);
  });
  it('binds loopback by default and refuses another address unless allowed explicitly', () => {
    expect(reviewBindAddress({})).toBe('127.0.0.1');
    expect(reviewBindAddress({ HAND_REVIEW_BIND: '::1' })).toBe('::1');
    expect(() => reviewBindAddress({ HAND_REVIEW_BIND: '0.0.0.0' })).toThrow(/HAND_REVIEW_ALLOW_REMOTE=1/);
    expect(reviewBindAddress({ HAND_REVIEW_BIND: '0.0.0.0', HAND_REVIEW_ALLOW_REMOTE: '1' })).toBe('0.0.0.0');
    expect(reviewPort({})).toBe(0);
    expect(() => reviewPort({ HAND_REVIEW_PORT: 'eighty' })).toThrow(/not a port/);
  });
  it('the token is made once per state directory, 0600, and kept', () => {
    const d = makeTempDir('review-token');
    try {
      const t = loadOrCreateToken(d.path);
      expect(t).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(tokenPath(d.path)).mode & 0o777).toBe(0o600);
      expect(loadOrCreateToken(d.path)).toBe(t);
      writeFileSync(tokenPath(d.path), 'short\n');
      expect(loadOrCreateToken(d.path)).not.toBe('short');
    } finally {
      d.cleanup();
    }
  });
});
