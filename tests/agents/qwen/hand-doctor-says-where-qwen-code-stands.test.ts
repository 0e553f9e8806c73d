/**
 * `hand doctor`'s Qwen Code line (issue 45): the installed binary found (HAND_QWEN_BIN here: the
 * pinned package until node_modules has it), its version read from the package.json beside its
 * bundle, and where it stands against the versions the reader was scored on, with the fix when not.
 */
import { describe, expect, it } from 'vitest';
import { qwenCheck, qwenStanding } from '../../../io/agent/qwen/standing.ts';
import { QWEN_PINNED } from '../../../io/agent/qwen/binary.ts';
import { qwenBinaryFor } from '../../harness/real-qwen.ts';

const FIX = `npm install --save-exact @qwen-code/qwen-code@${QWEN_PINNED}`;

describe('hand doctor says where Qwen Code stands', () => {
  it('the pinned binary: found, its version read without starting it, in the corpus', async () => {
    const bin = qwenBinaryFor();
    const check = await qwenCheck({ HAND_QWEN_BIN: bin, PATH: '' });
    expect(check).toMatchObject({ name: 'qwen', ok: true, optional: true });
    expect(check.detail).toBe(`${QWEN_PINNED} (${bin}); its screens are in the reader's corpus (0.15.6 … ${QWEN_PINNED})`);
  });

  it('none found, a newer release and an older one each said with what to do', async () => {
    expect(await qwenCheck({ PATH: '' }).then((c) => c.ok || c.fix)).toSatisfy((v) => v === true || v === FIX);
    expect(qwenStanding(null, null)).toMatchObject({ ok: false, detail: 'Qwen Code not found (needed for --agent qwen)', fix: FIX });
    expect(qwenStanding('/b/qwen', '0.24.4')).toMatchObject({ ok: false, fix: 'npm run capture -- --agent qwen --version 0.24.4' });
    expect(qwenStanding('/b/qwen', '0.12.0')).toMatchObject({ ok: true, detail: expect.stringContaining('not in the reader\'s corpus') });
    expect(qwenStanding('/b/qwen', null)).toMatchObject({ ok: false, detail: '/b/qwen did not say its version (qwen --version)' });
  });
});
