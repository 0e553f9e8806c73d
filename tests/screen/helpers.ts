/**
 * Test helpers for screen analysis: build screens from rows, load the copied captures.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { parseAnsi, parsePlain, type Screen } from '../../io/screen/index.ts';

export const NBSP = '\u00A0';
export const CARET = '\u276F';
/** The live box row as tmux prints it: caret + NBSP + text. */
export const BOX = `${CARET}${NBSP}`;
export const RULE = '─'.repeat(120);

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/claude-code/', import.meta.url));

export function fixtureText(relative: string): string {
  return readFileSync(`${FIXTURE_DIR}${relative}`, 'utf8');
}

/** A capture as the host would parse it: `.ansi.txt` with SGR, otherwise plain. */
export function fixtureScreen(relative: string): Screen {
  const text = fixtureText(relative);
  return relative.endsWith('.ansi.txt') ? parseAnsi(text) : parsePlain(text);
}

/** A plain screen from rows (no trailing newline handling needed). */
export function screenOf(...rows: string[]): Screen {
  return parsePlain(rows.join('\n'));
}

/** An idle fullscreen layout around `boxRow`, with optional transcript rows above and footer below. */
export function idleScreen(opts: { transcript?: string[]; boxRow?: string; footer?: string[] } = {}): Screen {
  return screenOf(
    ' ▐▛███▛█   Claude Code v2.1.332',
    ...(opts.transcript ?? []),
    RULE,
    opts.boxRow ?? BOX,
    RULE,
    ...(opts.footer ?? ['  ⏸ manual mode on · ? for shortcuts']),
  );
}

/** Rows as a host hands them over, untouched (no parser trimming or splitting). */
export function screenOfRows(texts: readonly string[]): Screen {
  return { cols: 120, rows: texts.length, lines: texts.map((text) => ({ text })), hasAttributes: false };
}

/**
 * Rows built from pieces of the volatile shapes (timers, token counts, spinner glyphs, the `*`
 * frame, escapes) and of every kind of whitespace, so they meet at row ends and across rows.
 */
const normalisationPiece = fc.constantFrom(
  '5', '12', '1.4', '0', 'h', 'm', 's', 'k', 'M', 'S', 'H', ' tokens', 'token', 'tokens)', '.', '(', ')',
  ' ', '  ', '\t', NBSP, '\r', '\v', '\f', '\u3000', '\u2028', '\ufeff', '\u0085', '\u180e', '*', ' *', '✻', '·', '✢', '\u2800',
  '─', '│', CARET, 'x', 'done', 'ab', '\x1b[31m', '\x1b[', '\x1b', RULE,
);
export const normalisationRow = fc.array(normalisationPiece, { maxLength: 8 }).map((parts) => parts.join(''));
