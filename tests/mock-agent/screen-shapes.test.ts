/**
 * The rules the supervisor's screen reader relies on hold in every frame the mock draws: only
 * the live box row starts with ❯ + U+00A0 (every menu caret and echoed prompt uses a plain
 * space), no row is wider than the terminal, and a fullscreen frame fills exactly the rows.
 */
import { describe, expect, it } from 'vitest';
import { composeFrame, trustFrame, type FrameView } from '../../mock-agent/layout-frame.ts';
import { DEFAULT_QUESTION } from '../../mock-agent/steps.ts';
import { lineWidth, type Line } from '../../mock-agent/style.ts';
import { slashMatches } from '../../mock-agent/layout-dialogs.ts';
import { insertPaste, insertText, emptyBox, backspace, expandedText } from '../../mock-agent/box-state.ts';

const text = (l: Line) => l.map((s) => s.text).join('');

function view(over: Partial<FrameView>): FrameView {
  return {
    cols: 120,
    rows: 40,
    classic: false,
    cwdLabel: '/srv/repo',
    entries: [
      { kind: 'prompt', text: 'Say hello please' },
      { kind: 'reply', text: 'Hello. '.repeat(40) },
      { kind: 'finished', verb: 'Baked', seconds: 3, at: '8:15 AM' },
    ],
    box: { text: '', suggestion: null, working: false, slash: false },
    footer: { mode: 'manual', working: false, boxHasText: false, ctrlCArmed: false },
    spinner: null,
    dialog: null,
    slash: null,
    showEffort: false,
    hint: null,
    ...over,
  };
}

const BOX_ROW = /^\u276F\u00A0/;
const permission = { kind: 'permission' as const, view: { command: 'touch x', description: 'Make x', cwd: '/srv/repo', caret: 1 } };
const question = { kind: 'question' as const, view: { header: 'Database', question: DEFAULT_QUESTION.question, options: DEFAULT_QUESTION.options, caret: 2, typed: '' } };

const cases: Array<[string, FrameView, number]> = [
  ['idle', view({}), 1],
  ['typed', view({ box: { text: 'half typed', suggestion: null, working: false, slash: false } }), 1],
  ['working', view({ box: { text: '', suggestion: null, working: true, slash: false }, spinner: { glyph: '*', verb: 'Baking', seconds: 3, tokens: 6, tip: 'tip' } }), 1],
  ['slash menu', view({ box: { text: '/e', suggestion: null, working: false, slash: true }, slash: { commands: slashMatches('/e'), caret: 0 } }), 1],
  ['permission', view({ dialog: permission }), 0],
  ['question', view({ dialog: question }), 0],
  ['classic permission', view({ classic: true, dialog: permission }), 0],
  ['classic idle, narrow', view({ classic: true, cols: 50, rows: 12 }), 1],
  ['tiny fullscreen', view({ cols: 30, rows: 6, dialog: question }), 0],
];

describe('frames the mock agent draws keep the screen-reading rules', () => {
  for (const [name, v, boxes] of cases) {
    it(`${name}: ${boxes} live box row(s), carets elsewhere followed by a plain space, nothing wider than ${v.cols}`, () => {
      const frame = composeFrame(v);
      const rows = frame.map(text);
      expect(rows.filter((r) => BOX_ROW.test(r))).toHaveLength(boxes);
      for (const r of rows.filter((r) => !BOX_ROW.test(r))) expect(r).not.toMatch(/\u276F(?! )/);
      if (!v.classic) expect(frame).toHaveLength(v.rows);
      for (const l of frame) expect(lineWidth(l)).toBeLessThanOrEqual(v.cols);
    });
  }

  it('the trust dialog has no live box and its default caret is on "No, exit"', () => {
    const rows = trustFrame('/srv/repo', 0, 120, 40, false).map(text);
    expect(rows.some((r) => BOX_ROW.test(r))).toBe(false);
    expect(rows).toContain(' \u276F No, exit');
  });

  it('a prompt suggestion is drawn with its first letter under the inverse cursor and the rest dim', () => {
    const frame = composeFrame(view({ box: { text: '', suggestion: 'run the tests', working: false, slash: false } }));
    const row = frame.find((l) => BOX_ROW.test(text(l)));
    expect(row?.slice(1)).toEqual([
      { text: 'r', style: { inverse: true } },
      { text: 'un the tests', style: { dim: true } },
    ]);
  });
});

describe('the input box content', () => {
  it('a long paste is collapsed on screen but submitted whole; backspace removes it as one piece', () => {
    const paste = 'x'.repeat(900);
    const box = insertPaste(insertText(emptyBox(), 'see: '), paste, 1);
    expect(box.text).toBe('see: [Pasted text #1 +0 lines]');
    expect(expandedText(box)).toBe(`see: ${paste}`);
    expect(backspace(box).text).toBe('see: ');
  });

  it('typing replaces a prompt suggestion instead of mixing with it', () => {
    const box = insertText(emptyBox('run the tests'), 'n');
    expect(box).toMatchObject({ text: 'n', suggestion: null });
  });
});
