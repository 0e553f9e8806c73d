/**
 * Issue 26: a streaming mock composed and encoded its forty rows ten times a second (about 1 % of
 * a core each, which starved a 200-worker bench). A tick with nothing else changed now replaces
 * only the spinner's row. The rule: that frame is exactly the one composed whole, in both layouts,
 * and the renderer writes only the rows whose line changed.
 */
import { describe, expect, it } from 'vitest';
import { composeFrame, composeFrameRows, withSpinner, type FrameView } from '../../mock-agent/layout-frame.ts';
import { FullscreenRenderer } from '../../mock-agent/renderer.ts';

function working(over: Partial<FrameView>, tick: number): FrameView {
  return {
    cols: 100,
    rows: 30,
    classic: false,
    cwdLabel: '/srv/repo',
    entries: [{ kind: 'prompt', text: 'Stream for a while' }],
    box: { text: '', suggestion: null, working: true, slash: false },
    footer: { mode: 'manual', working: true, boxHasText: false, ctrlCArmed: false },
    spinner: { glyph: '✻✽✢'[tick % 3]!, verb: 'Baking', seconds: tick === 0 ? null : tick, tokens: tick * 2, tip: 'keep going' },
    dialog: null,
    slash: null,
    showEffort: true,
    hint: null,
    ...over,
  };
}

describe('a spinner tick redraws only the spinner', () => {
  for (const [name, over] of [
    ['fullscreen', {}],
    ['classic', { classic: true }],
    ['fullscreen, a long transcript', { entries: Array.from({ length: 30 }, (_, i) => ({ kind: 'prompt' as const, text: `line ${i}` })) }],
  ] as Array<[string, Partial<FrameView>]>) {
    it(`${name}: the frame after each tick is the one composed whole`, () => {
      let { frame, spinnerRow } = composeFrameRows(working(over, 0));
      expect(spinnerRow, 'the spinner row of the first frame').toBeGreaterThanOrEqual(0);
      for (let tick = 1; tick < 25; tick++) {
        frame = withSpinner(frame, spinnerRow, working(over, tick));
        expect(frame).toEqual(composeFrame(working(over, tick)));
      }
    });
  }

  it('the renderer encodes and writes only the row whose line changed', () => {
    const writes: string[] = [];
    const size = { cols: 100, rows: 30 };
    const r = new FullscreenRenderer({ write: (d: string) => writes.push(d) }, () => size);
    r.start();
    const first = composeFrameRows(working({}, 1));
    r.draw(first.frame, 't');
    const next = withSpinner(first.frame, first.spinnerRow, working({}, 2));
    r.draw(next, 't');
    const rowsWritten = [...writes.at(-1)!.matchAll(/\x1b\[(\d+);1H/g)].map((m) => Number(m[1]) - 1);
    expect(rowsWritten).toEqual([first.spinnerRow]);
  });
});
