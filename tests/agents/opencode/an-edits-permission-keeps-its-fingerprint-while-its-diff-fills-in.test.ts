/**
 * OpenCode draws an edit's permission a frame before its diff: the title, `→ Edit <path>` and a row
 * of `▀` where the diff will be, then the diff's lines. `hand wait` may see the first frame and
 * `hand answer` the second; the dialog is the same one, so its question and fingerprint must be
 * too (on the old reading the fingerprint covered every row and the question took the `▀` row in:
 * every answer to an edit was refused as "the dialog changed", seen against the real 1.18.33).
 * Another file asked about is another dialog.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain } from '../../../io/screen/index.ts';

const CAPTURE = fileURLToPath(new URL('../../fixtures/opencode-corpus/1.18.33/tmux-permission-edit.txt', import.meta.url));
const DIFF_ROW = /^(\s*┃\s{2})\d+ [+-].*$/;

function dialogOf(text: string) {
  const d = analyseScreen(parsePlain(text, { cols: 120, rows: 40 }), 'opencode').dialog;
  expect(d, 'a permission dialog is read').not.toBeNull();
  return d!;
}

describe("an edit's permission keeps its fingerprint while its diff fills in", () => {
  it('the frame before the diff (a row of ▀) reads as the same dialog as the frame after; another path does not', () => {
    const drawn = readFileSync(CAPTURE, 'utf8');
    const lines = drawn.split('\n');
    const first = lines.findIndex((l) => DIFF_ROW.test(l));
    expect(first, 'the capture draws the diff').toBeGreaterThan(0);
    // The first frame: the diff's place holds one row of half blocks, the rest still blank.
    const before = lines.map((l, i) => (DIFF_ROW.test(l) ? (i === first ? l.replace(DIFF_ROW, '$1▀') : '  ┃') : l)).join('\n');
    const after = dialogOf(drawn);
    const early = dialogOf(before);
    expect(early.question).toBe('Permission required: → Edit notes.md');
    expect(early.question).toBe(after.question);
    expect(early.fingerprint).toBe(after.fingerprint);
    const elsewhere = dialogOf(drawn.replace('→ Edit notes.md', '→ Edit other.md'));
    expect(elsewhere.fingerprint).not.toBe(after.fingerprint);
  });
});
