/**
 * The real tmux captures of OpenCode 1.18.33 taking a first prompt under load
 * (tests/fixtures/opencode-first-prompt/), each read as the daemon reads a 120x40 pane.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseScreen } from '../../../io/screen/index.ts';
import { parseAnsi } from '../../../io/screen/parse-ansi.ts';
import type { ScreenReading } from '../../../io/screen/types.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'opencode-first-prompt');

/** A capture of a 120x40 tmux pane, read by the real OpenCode reader. */
export const capturedOpencodeScreen = (name: string): ScreenReading =>
  analyseScreen(parseAnsi(readFileSync(join(FIXTURES, `${name}.ansi.txt`), 'utf8'), { cols: 120, rows: 40 }), 'opencode@1.18.33');

/** The screens in the order they came. */
export const opencodeFirstPromptScreens = () => ({
  /** The start view, our paste folded into its marker, the Enter not yet taken. */
  pasted: capturedOpencodeScreen('tmux-pasted-prompt'),
  /** The start view with its box emptied: OpenCode took the Enter. */
  enterTaken: capturedOpencodeScreen('tmux-enter-taken'),
  /** Every row blank: the start view gone, the session view not yet drawn. */
  betweenViews: capturedOpencodeScreen('tmux-between-views'),
  /** The session view: our prompt is the transcript's first message, the composer empty. */
  sessionOpened: capturedOpencodeScreen('tmux-session-opened'),
  /** The session view with the turn's spinner. */
  working: capturedOpencodeScreen('tmux-working'),
});
