/**
 * `hand doctor`'s Gemini CLI, OpenCode and Qwen Code lines (issue 45), one rule for the three
 * (io/agent/corpus-standing.ts): the installed binary found (HAND_<AGENT>_BIN here: the pinned
 * package, which node_modules may not hold), its version read from the package.json beside it
 * without starting it, and where it stands against the versions its reader was scored on, with
 * the fix when it is not.
 */
import { describe, expect, it } from 'vitest';
import { corpusCheck, corpusStanding, type CorpusAgent } from '../../io/agent/corpus-standing.ts';
import { GEMINI_PINNED } from '../../io/agent/gemini/binary.ts';
import { OPENCODE_PINNED } from '../../io/agent/opencode/binary.ts';
import { QWEN_PINNED } from '../../io/agent/qwen/binary.ts';
import { geminiBinaryFor } from '../harness/real-gemini.ts';
import { opencodeBinaryFor } from '../harness/real-opencode.ts';
import { qwenBinaryFor } from '../harness/real-qwen.ts';

const AGENTS: { name: CorpusAgent; label: string; chosenVar: string; binaryFor: () => string; pinned: string; oldest: string; fix: string; newer: string; older: string }[] = [
  { name: 'gemini', label: 'Gemini CLI', chosenVar: 'HAND_GEMINI_BIN', binaryFor: () => geminiBinaryFor(), pinned: GEMINI_PINNED, oldest: '0.55.1', fix: `npm install --save-exact @google/gemini-cli@${GEMINI_PINNED}`, newer: '0.99.0', older: '0.40.0' },
  { name: 'opencode', label: 'OpenCode', chosenVar: 'HAND_OPENCODE_BIN', binaryFor: () => opencodeBinaryFor(), pinned: OPENCODE_PINNED, oldest: '1.17.19', fix: `npm install --save-exact opencode-ai@${OPENCODE_PINNED}`, newer: '1.99.0', older: '1.16.0' },
  { name: 'qwen', label: 'Qwen Code', chosenVar: 'HAND_QWEN_BIN', binaryFor: () => qwenBinaryFor(), pinned: QWEN_PINNED, oldest: '0.15.6', fix: `npm install --save-exact @qwen-code/qwen-code@${QWEN_PINNED}`, newer: '0.24.4', older: '0.12.0' },
];

describe.each(AGENTS)('hand doctor says where $label stands', (a) => {
  it('the pinned binary: found, its version read without starting it, in the corpus', async () => {
    const bin = a.binaryFor();
    const check = await corpusCheck(a.name, { [a.chosenVar]: bin, PATH: '' });
    expect(check).toMatchObject({ name: a.name, ok: true, optional: true });
    expect(check.detail).toBe(`${a.pinned} (${bin}); its screens are in the reader's corpus (${a.oldest} … ${a.pinned})`);
  });

  it('none found, a newer release and an older one each said with what to do', async () => {
    expect(await corpusCheck(a.name, { PATH: '' }).then((c) => c.ok || c.fix)).toSatisfy((v) => v === true || v === a.fix);
    expect(corpusStanding(a.name, null, null)).toMatchObject({ ok: false, detail: `${a.label} not found (needed for --agent ${a.name})`, fix: a.fix });
    expect(corpusStanding(a.name, `/b/${a.name}`, a.newer)).toMatchObject({ ok: false, fix: `npm run capture -- --agent ${a.name} --version ${a.newer}` });
    expect(corpusStanding(a.name, `/b/${a.name}`, a.older)).toMatchObject({ ok: true, detail: expect.stringContaining('not in the reader\'s corpus') });
    expect(corpusStanding(a.name, `/b/${a.name}`, null)).toMatchObject({ ok: false, detail: `/b/${a.name} did not say its version (${a.name} --version)` });
  });
});
