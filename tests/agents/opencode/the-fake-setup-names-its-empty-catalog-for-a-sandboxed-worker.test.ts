/**
 * The fake setup (fakeProviderSetup: the calibration's and the real-OpenCode tests') leaves an
 * empty model catalog in the person's cache, ~/.cache/opencode/models.json: its provider is the
 * config's own. A worker in kingshand's sandbox has a cache home of its own and never sees that
 * file; without it 1.18.33 decodes the catalog bundled in it at every start (a worker through hand
 * to its first permission dialog: 11.6 CPU-s against 6.4). So the setup names the file with
 * OPENCODE_MODELS_PATH, a person's variable the worker is given and its sandbox shows read-only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeProviderSetup } from '../../../io/agent/opencode/calibration-kit.ts';
import { agentProfile } from '../../../io/agent/profiles/index.ts';
import { launchSpec } from '../../../io/agent/launch.ts';
import { useTempDirs } from '../../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();

describe("the fake OpenCode setup names its empty catalog for a sandboxed worker", () => {
  it('OPENCODE_MODELS_PATH names the empty catalog in the cache; the worker is given it and its sandbox shows it read-only', () => {
    const home = tempDir('oc-catalog');
    const vars = fakeProviderSetup(home, 'http://127.0.0.1:9');
    const catalog = join(home, '.cache', 'opencode', 'models.json');
    expect(vars.OPENCODE_MODELS_PATH).toBe(catalog);
    expect(JSON.parse(readFileSync(catalog, 'utf8'))).toEqual({});
    const profile = agentProfile('opencode');
    const env = { PATH: '/usr/bin:/bin', HOME: home, ...vars };
    expect(launchSpec('opencode', { callerEnv: env, posture: 'ask' }).env.OPENCODE_MODELS_PATH).toBe(catalog);
    expect(profile.sandboxPaths?.(env)?.ro).toContain(catalog);
  });
});
