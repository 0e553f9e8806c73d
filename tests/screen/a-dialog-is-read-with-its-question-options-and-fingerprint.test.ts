/**
 * A blocked screen's dialog is read once, in io/screen: question, options in order, the cursor,
 * whether the cursor is on a free-text row, and a fingerprint that stays the same while the
 * cursor moves but differs for another dialog with the same options (a different command).
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { fixtureScreen, fixtureText, parseFixtureText } from './dialog-helpers.ts';

const read = (name: string) => analyseScreen(fixtureScreen(`2.1.332/${name}.ansi.txt`));

describe('a dialog is read with its question, options and fingerprint', () => {
  it('the question menu: five options, free text at 4, cursor on 1', () => {
    const d = read('07-ask-user-question').dialog!;
    expect(d.question).toBe('Which database should the fake project use?');
    expect(d.options.map((o) => o.label)).toEqual(['SQLite', 'Postgres', 'None', 'Type something.', 'Chat about this']);
    expect(d.options.filter((o) => o.freeText).map((o) => o.n)).toEqual([4]);
    expect(d).toMatchObject({ numbered: true, cursor: 1, textField: false, reason: 'question' });
    expect(d.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('the permission dialog and the trust dialog (unnumbered rows count from 1)', () => {
    const p = read('06-permission-bash').dialog!;
    expect(p.question).toBe('Do you want to proceed?');
    expect(p.options.map((o) => o.n)).toEqual([1, 2, 3, 4]);
    const t = read('03-trust-dialog').dialog!;
    expect(t).toMatchObject({ numbered: false, cursor: 1, reason: 'folder-trust' });
    expect(t.options.map((o) => o.label)).toEqual(['No, exit', 'Yes, I trust this folder']);
  });

  it('moving the cursor keeps the fingerprint; another command under the same options changes it', () => {
    const text = fixtureText('2.1.332/06-permission-bash.txt');
    const moved = text.replace('❯ 1. Yes', '  1. Yes').replace('   2. Yes, and always', ' ❯ 2. Yes, and always');
    const other = text.replaceAll('touch fake-artifact.txt && echo created fake-artifact.txt', 'rm -rf build');
    const base = analyseScreen(parseFixtureText(text)).dialog!;
    const m = analyseScreen(parseFixtureText(moved)).dialog!;
    expect(m.cursor).toBe(2);
    expect(m.fingerprint).toBe(base.fingerprint);
    expect(analyseScreen(parseFixtureText(other)).dialog!.fingerprint).not.toBe(base.fingerprint);
  });

  it('an idle screen has no dialog', () => {
    expect(read('04-idle-box').dialog).toBeNull();
  });
});
