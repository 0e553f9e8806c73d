/**
 * `hand doctor`'s OpenCode line (issue 45): the installed binary found (HAND_OPENCODE_BIN here:
 * node_modules has none on this checkout), its version read from the package.json beside it, and
 * where it stands against the versions the reader was scored on, with the fix when it is not.
 */
import { describe, expect, it } from 'vitest';
import { opencodeCheck, opencodeStanding } from '../../../io/agent/opencode/standing.ts';
import { OPENCODE_PINNED } from '../../../io/agent/opencode/binary.ts';
import { opencodeBinaryFor } from '../../harness/real-opencode.ts';

describe("hand doctor says where OpenCode stands", () => {
  it('the pinned binary: found, its version read without starting it, in the corpus', async () => {
    const bin = opencodeBinaryFor();
    const check = await opencodeCheck({ HAND_OPENCODE_BIN: bin, PATH: '' });
    expect(check).toMatchObject({ name: 'opencode', ok: true, optional: true });
    expect(check.detail).toBe(`${OPENCODE_PINNED} (${bin}); its screens are in the reader's corpus (1.17.19 … ${OPENCODE_PINNED})`);
  });

  it('none found, a newer release and an older one each said with what to do', async () => {
    expect(await opencodeCheck({ PATH: '' }).then((c) => c.ok || c.fix)).toSatisfy((v) => v === true || v === `npm install --save-exact opencode-ai@${OPENCODE_PINNED}`);
    expect(opencodeStanding(null, null)).toMatchObject({ ok: false, detail: 'OpenCode not found (needed for --agent opencode)', fix: `npm install --save-exact opencode-ai@${OPENCODE_PINNED}` });
    expect(opencodeStanding('/b/opencode', '1.99.0')).toMatchObject({ ok: false, fix: 'npm run capture -- --agent opencode --version 1.99.0' });
    expect(opencodeStanding('/b/opencode', '1.16.0')).toMatchObject({ ok: true, detail: expect.stringContaining('not in the reader\'s corpus') });
    expect(opencodeStanding('/b/opencode', null)).toMatchObject({ ok: false, detail: '/b/opencode did not say its version (opencode --version)' });
  });
});
