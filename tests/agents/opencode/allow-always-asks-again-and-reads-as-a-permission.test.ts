/**
 * OpenCode 1.18.33's `Allow always` does not answer at once: it asks again, in the same panel —
 * `△ Always allow`, `This will allow edit until OpenCode is restarted.`, `Confirm   Cancel` side
 * by side, Confirm on a colour of its own (seen in a real worker's pane during the e2e run; the
 * rows below are that pane's, the dialog's panel put on the edit capture's screen). The worker is
 * still blocked on a permission, and hand reads what is asked and its two buttons, across.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain } from '../../../io/screen/index.ts';

const CAPTURE = fileURLToPath(new URL('../../fixtures/opencode-corpus/1.18.33/tmux-permission-edit.txt', import.meta.url));
const PAD = (s: string) => `  ┃  ${s}`;
const CONFIRM = ['  ┃', PAD('△ Always allow'), '  ┃', PAD('This will allow edit until OpenCode is restarted.'), '  ┃', '  ┃',
  `  ┃   Confirm   Cancel${' '.repeat(70)}⇆ select  enter confirm`, '  ┃'];

describe('Allow always asks again and reads as a permission', () => {
  it('the confirmation is a permission dialog: what it allows, Confirm and Cancel side by side', () => {
    const lines = readFileSync(CAPTURE, 'utf8').split('\n');
    const top = lines.findIndex((l) => l.includes('Permission required')) - 1;
    const screen = [...lines.slice(0, top), ...CONFIRM, ...Array<string>(Math.max(0, lines.length - top - CONFIRM.length)).fill('')].join('\n');
    const r = analyseScreen(parsePlain(screen, { cols: 120, rows: 40 }), 'opencode');
    expect(r.state).toBe('blocked');
    expect(r.blockedReason).toBe('permission');
    expect(r.dialog).toMatchObject({
      question: 'Always allow: This will allow edit until OpenCode is restarted.',
      options: [{ n: 1, label: 'Confirm' }, { n: 2, label: 'Cancel' }],
      across: true,
      // No colours in a plain screen: the cursor is not seen, and hand answer refuses to guess.
      cursor: null,
    });
  });
});
