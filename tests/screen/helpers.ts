/**
 * Test helpers for screen analysis: build screens from rows, load the copied captures.
 */
import { readFileSync } from 'node:fs';
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
