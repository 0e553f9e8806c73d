/**
 * `hand doctor` says whether Claude Code's sandbox can run here (bubblewrap and socat on PATH):
 * posture off needs it and dispatch refuses off without it. An optional check: the other postures
 * work without.
 */
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { binDir } from '../helpers/bin-dir.ts';

const makeWorld = useCliWorld();

describe('hand doctor and the sandbox', () => {
  it('names bubblewrap and socat missing from PATH, with the install line; found, the check passes', async () => {
    const w = await makeWorld('doctor-sandbox');
    const bare = await w.hand(['doctor', '--json'], { env: { PATH: binDir(w.root, 'bin-bare') } });
    const missing = bare.json.checks.find((c: { name: string }) => c.name === 'sandbox');
    expect(missing).toMatchObject({ ok: false, optional: true, fix: 'sudo apt-get install -y bubblewrap socat' });
    expect(missing.detail).toContain('bwrap and socat not found');
    const found = (await w.hand(['doctor', '--json'])).json.checks.find((c: { name: string }) => c.name === 'sandbox');
    expect(found).toMatchObject({ ok: true });
  });
});
