/**
 * Rule (issue 39, item 5): a permission dialog drawn without its footer (`Esc to cancel · Tab to
 * amend`) is still a dialog while its options are on screen — whatever else of it is missing: the
 * question cut off above a short pane, the cursor glyph (a highlight drawn in colour only leaves
 * none in the text). The options are the part of a permission dialog every release keeps: `1.`
 * accepting (Yes, Allow), a refusing one (No, Deny), numbered in order at the bottom. Screens: the
 * real 2.1.332 Bash permission capture with rows taken away, at three sizes.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { atSize, plainScreen, replaceRows, rowWhere, rowsOf, SIZES } from './variants.ts';

const base = rowsOf('2.1.332/06-permission-bash.txt');
const footer = rowWhere(base, (r) => r.includes('Esc to cancel · Tab to amend'));
const question = rowWhere(base, (r) => r.includes('Do you want to proceed?'));
const cursor = rowWhere(base, (r) => r.includes('❯ 1. Yes'));
const withoutFooter = replaceRows(base, footer, footer, ['']);

const read = (rows: readonly string[], cols = 120) => analyseScreen(plainScreen(rows, cols));

describe('a permission dialog drawn without its footer is still a dialog', () => {
  for (const [cols, height] of SIZES) {
    it(`no footer: blocked on a permission at ${cols}×${height}`, () => {
      const r = read(atSize(withoutFooter, cols, height), cols);
      expect([r.state, r.awaitingInput, r.blockedReason]).toEqual(['blocked', true, 'permission']);
    });

    it(`no footer and no question (cut off above): blocked on a permission at ${cols}×${height}`, () => {
      const rows = replaceRows(withoutFooter, question, question, ['']);
      const r = read(atSize(rows, cols, height), cols);
      expect([r.state, r.blockedReason]).toEqual(['blocked', 'permission']);
    });

    it(`no footer, no question and no cursor glyph (a colour-only highlight): still blocked at ${cols}×${height}`, () => {
      let rows = replaceRows(withoutFooter, question, question, ['']);
      rows = rows.map((row) => (row === base[cursor] ? row.replace('❯', ' ') : row));
      const r = read(atSize(rows, cols, height), cols);
      expect([r.state, r.awaitingInput, r.blockedReason]).toEqual(['blocked', true, 'permission']);
    });
  }

  it('the options of an answered dialog above the live box are transcript, not a dialog', () => {
    const answered = rowsOf('2.1.332/08-turn-finished.txt');
    const at = rowWhere(answered, (r) => /^✻ /.test(r));
    const rows = replaceRows(answered, at, at, ['   1. Yes', '   2. Yes, and always allow access', '   3. No', answered[at]!]);
    expect(read(rows).state).toBe('idle');
  });

  it('a numbered list that is not an approval (no accepting first choice, no refusing one) is no dialog by its options alone', () => {
    let rows = replaceRows(withoutFooter, question, question, ['']);
    rows = rows.map((row) => row.replace('❯ 1. Yes', '  1. Read the tests').replace('2. Yes, and always', '2. Fix the parser and always').replace(/4\. No$/, '4. Run the suite'));
    rows = rows.map((row) => row.replace('3. Yes, and switch to auto mode · auto mode handles these prompts for you', '3. Write it up'));
    // Nothing else on screen asks: not blocked (the dialog's own title rows stay, and read as could-not-tell or working).
    expect(read(rows).awaitingInput).toBe(false);
  });
});
