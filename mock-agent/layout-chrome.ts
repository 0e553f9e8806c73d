/**
 * The fixed parts of Claude Code 2.1.332's screen: the logo header, the input box line, the
 * footer, the spinner line and the right-aligned hint slot. Shapes and colours follow the
 * captures 04-idle-box, 04d-box-with-typed-text, 05-working-spinner-*, 09-prompt-suggestion.
 */
import { BLANK, CARET, COLOUR, ELBOW, NBSP, rightAligned, seg, textWidth, type Line } from './style.ts';

export const VERSION = '2.1.332';

export function headerLines(cwdLabel: string): Line[] {
  const logo = { fg: COLOUR.accent };
  const logoOnBlack = { fg: COLOUR.accent, bg: COLOUR.logoBg };
  const grey = { fg: COLOUR.grey };
  return [
    [seg(' \u2590', logo), seg('\u259B\u2588\u2588\u2588\u259B\u2588', logoOnBlack), seg('   '), seg('Claude Code', { bold: true }), seg(' '), seg(`v${VERSION}`, grey)],
    [seg('\u259D\u259C', logo), seg('\u2588\u2588\u2588\u2588\u2588', logoOnBlack), seg('\u2588\u2580', logo), seg('  '), seg('Opus 5.5 \u00B7 API Usage Billing', grey)],
    [seg(' \u259D\u259D   \u259D\u259D ', logo), seg('  '), seg(cwdLabel, grey)],
  ];
}

export type PermissionMode = 'manual' | 'accept-edits' | 'plan' | 'auto';

/** shift+tab order of the real program: auto → manual → accept edits → plan → auto. */
export const MODE_CYCLE: PermissionMode[] = ['auto', 'manual', 'accept-edits', 'plan'];

function modeText(mode: PermissionMode): string {
  switch (mode) {
    case 'manual':
      return '\u23F8 manual mode on';
    case 'plan':
      return '\u23F8 plan mode on (shift+tab to cycle)';
    case 'accept-edits':
      return '\u23F5\u23F5 accept edits on (shift+tab to cycle)';
    case 'auto':
      return '\u23F5\u23F5 auto mode on (shift+tab to cycle)';
  }
}

export interface FooterView {
  mode: PermissionMode;
  working: boolean;
  /** The box holds typed text: the `? for shortcuts` hint goes away (04d). */
  boxHasText: boolean;
  ctrlCArmed: boolean;
}

export function footerText(v: FooterView): string {
  if (v.ctrlCArmed) return '  Press Ctrl-C again to exit';
  let text = `  ${modeText(v.mode)}`;
  if (v.working) text += ' \u00B7 esc to interrupt';
  else if (!v.boxHasText) text += ' \u00B7 ? for shortcuts';
  return text;
}

export function footerLine(v: FooterView): Line {
  return [seg('  '), seg(footerText(v).slice(2), { fg: COLOUR.grey })];
}

export const EFFORT_TEXT = '\u25D0 medium \u00B7 /effort';

/** Classic renderer: the effort indicator or a key hint sits at the right end of the footer line. */
export function classicFooterLine(v: FooterView, cols: number, right: string | null): Line {
  const text = footerText(v);
  if (!right) return footerLine(v);
  const gap = Math.max(1, cols - 2 - textWidth(text) - textWidth(right));
  return [...footerLine(v), seg(' '.repeat(gap)), seg(right, { fg: COLOUR.grey })];
}

/** The row right above the box rule: the effort line on a fresh session, a key hint, or blank. */
export function hintSlot(cols: number, showEffort: boolean, hint: string | null): Line {
  if (hint) return rightAligned(hint, cols, { fg: COLOUR.grey });
  if (showEffort) return rightAligned(EFFORT_TEXT, cols, { fg: COLOUR.grey });
  return BLANK;
}

export interface BoxView {
  /** What the box displays (pastes collapsed to their placeholder). */
  text: string;
  /** A prompt suggestion shown in an otherwise empty box (dim, cursor on its first letter). */
  suggestion: string | null;
  /** While a turn runs the caret is drawn grey. */
  working: boolean;
  /** Text starting with `/` is drawn in the menu colour while the slash menu is open. */
  slash: boolean;
}

const CURSOR = { inverse: true };

/**
 * The live input box: ❯ + U+00A0, the text, then the app's own cursor (an inverse cell; the
 * hardware cursor is hidden). Long text continues on further rows indented by two columns.
 */
export function boxLines(v: BoxView, cols: number): Line[] {
  const caret = seg(`${CARET}${NBSP}`, v.working ? { fg: COLOUR.grey } : undefined);
  if (v.text === '' && v.suggestion) {
    const [first, ...rest] = Array.from(v.suggestion);
    return [[caret, seg(first ?? ' ', CURSOR), seg(rest.join(''), { dim: true })]];
  }
  const width = Math.max(1, cols - 3);
  const chunks: string[] = [];
  const chars = Array.from(v.text.replace(/\n/g, ' '));
  for (let i = 0; i < chars.length; i += width) chunks.push(chars.slice(i, i + width).join(''));
  if (chunks.length === 0) chunks.push('');
  const textStyle = v.slash ? { fg: COLOUR.blue } : undefined;
  return chunks.map((chunk, i) => {
    const line: Line = [i === 0 ? caret : seg('  ')];
    if (chunk) line.push(seg(chunk, textStyle));
    if (i === chunks.length - 1) line.push(seg(' ', CURSOR));
    return line;
  });
}

export interface SpinnerView {
  glyph: string;
  verb: string;
  /** Mock seconds elapsed; null during the first second, when the real program shows no counter. */
  seconds: number | null;
  tokens: number;
  tip: string;
  /** Shown first in the status, as 2.1.332 does while its Stop hooks run: `(running Stop hook · 0s · ↓ 3 tokens)`. */
  status?: string;
}

export function spinnerLine(v: SpinnerView): Line {
  const accent = { fg: COLOUR.accent };
  const line: Line = [seg(v.glyph, accent), seg(' '), seg(`${v.verb}\u2026`, accent)];
  if (v.status !== undefined) {
    line.push(seg(' '), seg(`(${v.status} \u00B7 ${v.seconds ?? 0}s \u00B7 \u2193`, { fg: COLOUR.grey }), seg(' '), seg(`${v.tokens} tokens)`, { fg: COLOUR.grey }));
  } else if (v.seconds !== null) {
    line.push(seg(' '), seg(`(${v.seconds}s \u00B7 \u2193`, { fg: COLOUR.grey }), seg(' '), seg(`${v.tokens} tokens)`, { fg: COLOUR.grey }));
  }
  return line;
}

export function tipLine(tip: string): Line {
  return [seg(`  ${ELBOW} ${NBSP}Tip: ${tip}`, { fg: COLOUR.grey })];
}
