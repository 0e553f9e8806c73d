/**
 * Worker ids become herdr agent names without two workers ever sharing one (control-plane §1.3).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HERDR_AGENT_NAME, herdrAgentName } from '../../io/terminal/herdr/agent-name.ts';

describe('herdr agent names', () => {
  it('lowercases and passes a clean id through unchanged', () => {
    expect(herdrAgentName('T-9001')).toBe('t-9001');
    expect(herdrAgentName('login-fix')).toBe('login-fix');
    expect(herdrAgentName('A')).toBe('a');
  });

  it("always matches herdr's name pattern and stays within 32 characters", () => {
    for (const id of ['9lives', 'AB/CD:EF', 'has spaces in it', '--lead-and-trail--', 'x'.repeat(64), 'A']) {
      const name = herdrAgentName(id);
      expect(name).toMatch(HERDR_AGENT_NAME);
      expect(name.length).toBeLessThanOrEqual(32);
    }
  });

  it('never maps two ids onto one name when something had to be discarded', () => {
    expect(herdrAgentName('9lives')).not.toBe(herdrAgentName('lives'));
    const prefix = 'a'.repeat(40);
    expect(herdrAgentName(`${prefix}-one`)).not.toBe(herdrAgentName(`${prefix}-two`));
    const batch = ['9lives', 'lives', '1lives', `${prefix}-a`, `${prefix}-b`, 'worker-1', 'worker-2'].map(herdrAgentName);
    expect(new Set(batch).size).toBe(batch.length);
    // Case-only differences collapse on purpose (herdr names are lowercase).
    expect(herdrAgentName('Lives')).toBe(herdrAgentName('lives'));
  });

  it('is deterministic and idempotent', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }).filter((s) => /[a-zA-Z]/.test(s)), (id) => {
        const name = herdrAgentName(id);
        expect(herdrAgentName(id)).toBe(name);
        expect(herdrAgentName(name)).toBe(name);
        expect(name).toMatch(HERDR_AGENT_NAME);
      }),
    );
  });

  it('refuses an id with no letter in it', () => {
    for (const id of ['9001', '---', '9-0_1', '2026-08-29']) expect(() => herdrAgentName(id)).toThrow(/no letter/);
  });
});
