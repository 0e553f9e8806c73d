/**
 * `hand dispatch` starts a mock worker with no flags of the test's choosing, only the caller's
 * environment (KH_MOCK_* passes the worker-env filter): KH_MOCK_SCENARIO and
 * KH_MOCK_PERMISSION_MODE give it a scenario and a permission mode there; a flag still wins.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../mock-agent/options.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();

describe('a dispatched mock takes its scenario and mode from the environment', () => {
  it('reads KH_MOCK_SCENARIO and KH_MOCK_PERMISSION_MODE; the flags win over both', () => {
    const dir = tempDir('mock-env');
    const file = (name: string, match: string) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify({ turns: [{ match, steps: [{ kind: 'reply', text: match }] }] }));
      return path;
    };
    const env = { HOME: dir, KH_MOCK_SCENARIO: file('env.json', 'from-env'), KH_MOCK_PERMISSION_MODE: 'auto' };
    const fromEnv = resolveConfig({}, env, dir);
    expect(fromEnv.mode).toBe('auto');
    expect(fromEnv.scenario?.turns[0]?.match).toBe('from-env');
    const flagged = resolveConfig({ scenario: file('flag.json', 'from-flag'), permissionMode: 'plan' }, env, dir);
    expect(flagged.mode).toBe('plan');
    expect(flagged.scenario?.turns[0]?.match).toBe('from-flag');
    expect(() => resolveConfig({}, { ...env, KH_MOCK_SCENARIO: join(dir, 'missing.json') }, dir)).toThrow(/scenario .*missing\.json/);
  });
});
