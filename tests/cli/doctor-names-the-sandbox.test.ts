/**
 * `hand doctor` says whether kingshand's worker sandbox can be built here (issue 37): posture off
 * needs it and dispatch refuses off without it. An optional check: the other postures work
 * without. It is asked of the machine by a trial sandbox, not by looking for a file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { binDir } from '../helpers/bin-dir.ts';

const makeWorld = useCliWorld();
const sandboxCheck = (r: { json: { checks: { name: string }[] } }) => r.json.checks.find((c) => c.name === 'sandbox') as Record<string, unknown>;

describe('hand doctor and the sandbox', () => {
  it('names bubblewrap missing from PATH with the install line; a bwrap that cannot make a sandbox is named too; a working one passes', async () => {
    const w = await makeWorld('doctor-sandbox');
    const bare = await w.hand(['doctor', '--json'], { env: { PATH: binDir(w.root, 'bin-bare', {}, { without: ['bwrap'] }) } });
    expect(sandboxCheck(bare)).toMatchObject({ ok: false, optional: true, fix: expect.stringContaining('apt-get install -y bubblewrap') });
    expect(sandboxCheck(bare).detail).toContain('bubblewrap (bwrap) is not on');
    // A bwrap that refuses (as one without user namespaces does): the trial sandbox is what decides.
    const broken = join(w.root, 'broken-bwrap');
    writeFileSync(broken, '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', { mode: 0o755 });
    const refused = await w.hand(['doctor', '--json'], { env: { HAND_BWRAP: broken } });
    expect(sandboxCheck(refused)).toMatchObject({ ok: false });
    expect(sandboxCheck(refused).detail).toContain('a trial sandbox did not start (bwrap: bwrap: setting up uid map: Permission denied)');
    const found = sandboxCheck(await w.hand(['doctor', '--json']));
    expect(found).toMatchObject({ ok: true });
    expect(found.detail).toMatch(/bubblewrap \d/);
  });
});
