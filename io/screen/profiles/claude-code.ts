/**
 * How Claude Code (2.1.x, fullscreen and classic renderers) looks on screen: the strings and the
 * two small predicates the core cannot know. Sources: control-plane §3.2/§3.4, claude-code.md
 * §4 and §6, herdr.md §2.4/§3, and the captures in tests/fixtures/claude-code/.
 */
import type { BlockerRule, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import { lastRowsBefore, type ScreenLayout } from '../layout.ts';
import { claudeBackgroundTasks } from './claude-background.ts';
import { turnEndedInError } from '../agent-error.ts';
import { compareVersions, nearestCorpusVersion, parseClaudeVersion, promptGlyphsFor } from './claude-versions.ts';

/**
 * The hints Claude Code draws in the EMPTY box, by name. A hint is drawn as the empty box draws
 * it (the cursor cell at the box start, the rest dim), so by attributes it looks exactly like a
 * prompt suggestion; only this list tells "nothing typed" from "text a bare Enter would send".
 * Anchored at both ends with a non-empty middle: `Try "x" and report back` is content, not a
 * hint. Version-bound: `since` is the oldest version the hint was seen in where an older one was
 * checked without it (a profile for an older version leaves it out); an unknown new hint falls
 * through to "suggestion"/"typed", the refusing side. Sources: the prompt-input code of 2.0.0
 * (npm cli.js) and 2.1.197 (native binary), control-plane §3.4 (2.1.200), issue 21 (held-out
 * captures, the hint after an API error).
 */
export interface NamedPlaceholder {
  readonly name: string;
  readonly pattern: RegExp;
  /** Oldest version known to draw it; absent: every version reads it. */
  readonly since?: string;
}

export const CLAUDE_PLACEHOLDERS: readonly NamedPlaceholder[] = [
  // 2.0.0 and 2.1.197: shown while prompts are queued, the first few times
  { name: 'queued-messages', pattern: /^Press up to edit queued messages$/ },
  // 2.1.197 (absent from 2.0.0): the box while viewing a sub-agent (`Message @name…`)
  { name: 'message-agent', pattern: /^Message @.+\u2026$/, since: '2.1.197' },
  // 2.0.0 and 2.1.197: the example prompt before the first submit
  { name: 'try-example', pattern: /^Try ".+"$/ },
  // 2.0.0: memory mode (`#`)
  { name: 'memory-mode', pattern: /^Add to memory\. Try ".+"$/ },
  // after a turn ended in an API error (issue 21: held-out releases); wording varies by release
  { name: 'resend-after-api-error', pattern: /^(?:Resend|Re-send|Send) your (?:message|prompt) (?:again )?to (?:try again|retry)\.?$/ },
];

function placeholdersFor(version: string | null): RegExp[] {
  return CLAUDE_PLACEHOLDERS.filter((p) => version === null || p.since === undefined || compareVersions(version, p.since) >= 0).map((p) => p.pattern);
}

/** The live input row: `❯` U+276F + U+00A0. Every other caret has a plain space after it. */
export const CLAUDE_BOX: PromptBoxSpec = {
  prefix: '\u276F\u00A0',
  // 2.0.0 drew `>` + U+00A0 (corpus 2.0.0); 2.0.77 and later draw `❯` + U+00A0.
  glyphs: '\u276F>',
  frame: '\u2502',
  placeholders: placeholdersFor(null),
};

/**
 * Most specific first: the first matching rule names the reason. Startup dialogs carry their
 * own anchors because their footers are not always on screen (the theme picker shows none).
 * The question markers come before `Do you want to`, which a question's own text may contain.
 */
export const CLAUDE_BLOCKERS: readonly BlockerRule[] = [
  { reason: 'bypass-warning', anyOf: ['Bypass Permissions mode'] },
  { reason: 'api-key', anyOf: ['Detected a custom API key'] },
  {
    reason: 'folder-trust',
    anyOf: ['Quick safety check', 'trust this folder', 'Do you trust the files in this folder'],
  },
  { reason: 'onboarding', anyOf: ['Choose the text style'] },
  { reason: 'onboarding', allOf: ['Security notes:'], anyOf: ['Press Enter to continue'] },
  { reason: 'auto-mode', anyOf: ['Make auto mode your default'] },
  {
    reason: 'question',
    anyOf: ['Chat about this', 'Type something', 'Review your answers', 'Skip interview and plan immediately'],
  },
  { reason: 'question', anyOf: ['requests your input'] },
  { reason: 'permission', anyOf: ['Do you want to', 'Would you like to proceed?'] },
  // Tool dialogs without a footer (MCP servers, claude-in-chrome: `… wants to …`, `❯ 1. Allow`,
  // `2. Deny (esc)`) and bare "Would you like to …?" choices: only with a menu shape under them.
  { reason: 'permission', anyOf: [' wants to ', 'Would you like to', 'Deny (esc)', '. Allow', '. Yes'], needsMenu: true },
  // A permission dialog's own footer: with its options on screen it is one, whatever is above.
  { reason: 'permission', anyOf: ['Tab to amend'], needsMenu: true },
  // Navigate hints spelled out: a bare `to navigate` also matches "wants to navigate to …".
  { reason: 'menu', anyOf: ['Enter to select', '↑/↓ to navigate', '↑↓ to navigate', 'rrow keys to navigate', 'rrows to navigate'] },
  { reason: 'dialog', anyOf: ['Press Enter to continue', 'Run a dynamic workflow?'] },
  // A footer alone is a dialog (a text form has no options), except the permission dialog's
  // footer without its options: closing one, 2.1.197 left its last rows (`3. No`,
  // `Esc to cancel · Tab to amend`) on screen for half a second while the tool ran.
  { reason: 'dialog', anyOf: ['Enter to confirm', 'Esc to cancel'], noneOf: ['Tab to amend'] },
];

/**
 * A live spinner line: glyph, verb ending in `…` (U+2026), then end of line or a `(` status
 * (elapsed time, token counter, `esc to interrupt`, `thinking`: any status). A finished turn's
 * line (`✻ Baked for 4s · done 8:15 AM`) has no ellipsis and never matches. ✳ ∗ ✷–✺ are
 * included although 2.1.332 did not show them: other versions and fonts animate through them.
 */
const SPINNER_LINE = /^\s*[·✢*✶✻✽✳∗✷✸✹✺]\s+\S[^…]{0,80}(?:…|\.\.\.)(?:\s*$|\s+\()/;
/**
 * A spinner line whose status is not the `(…)` right after the verb's ellipsis, drawn at column 0
 * where only the spinner stands (a reply's own lines are indented under its `●`): the status
 * after the ellipsis without parentheses (`✢ Pondering… 12s · thinking with high effort`), or a
 * parenthesised running status — a timer, a token count, `thinking`/`thought`/an effort label,
 * the interrupt hint — with or without the ellipsis (`✢ Pondering (1m 3s · thinking with high
 * effort)`). 2.1.332 composes it as verb…, then `(suffix · elapsed · ↓ N tokens · thinking with
 * <level> effort)`, parts dropped as the width runs out. A finished turn's line (`✻ Cooked for 17s
 * · done 8:15 AM`, `✻ Conversation compacted (ctrl+o for history)`) has none of these.
 */
const LIVE_STATUS_LINE = /^[·✢*✶✻✽✳∗✷✸✹✺]\s+\S.{0,80}?(?:(?:…|\.\.\.)\s+\S|\((?=[^)]*(?:\b\d+(?:\.\d+)?s\b|\b\d+m\b|\btokens?\b|esc to interrupt|\bthinking\b|\bthought\b|\beffort\b)))/u;
/** A spinner line of a running turn, however its status is drawn. */
const isSpinnerLine = (row: string): boolean => SPINNER_LINE.test(row) || LIVE_STATUS_LINE.test(row);
/** A finished turn still waiting on its background agents (herdr: background_agents_working). */
const WAITING_FOR_AGENTS = /^\s*[·✢*✶✻✽✳∗]\s+Waiting for [1-9]\d* background agents? to finish\b/;
const INTERRUPT_HINT = /esc to interrupt/i;

/** How many non-blank rows above the box may sit between the spinner and the box (tips, todos). */
const SPINNER_WINDOW = 10;
/** Without a box: how far up from the bottom a footer or spinner may be. */
const BOTTOM_WINDOW = 12;

/**
 * The line a finished turn leaves (`✻ Cooked for 17s · done 8:15 AM`, `✻ Worked for 1m 3s`): a
 * spinner glyph, a verb, ` for ` and a duration, no ellipsis. Everything above the last one is
 * an earlier turn's history.
 */
const TURN_END = /^\s*[·✢*✶✻✽✳∗✷✸✹✺]\s+[^\s…][^…]{0,60}? for \d+(?:\.\d+)?\s?(?:ms|[hms])\b/;

/**
 * A transcript entry at column 0 (`● …`, `⏺ …`): a running turn draws its spinner below its
 * entries, so an entry met before the spinner (an error banner, a reply) means the spinner
 * above it is history. Tips and todo lists under a live spinner are indented (`  ⎿ …`).
 */
const ENTRY_AFTER = /^[●⏺]\s+\S/u;

/**
 * Only what is below the last turn's end can be live (issue 21): a background or sub-agent's
 * line or panel entry, a "waiting for background agents" line or a spinner line quoted in a
 * prompt, above a later turn-end line — or above an entry (the error banner that ended the turn)
 * with the live box under it — is history. Rows are read from the box (or the bottom) upwards; the first
 * turn end met closes the search.
 */
function isWorking(layout: ScreenLayout): boolean {
  const { boxRow, boxLastRow, texts } = layout;
  if (boxRow !== -1) {
    for (const row of texts.slice(boxLastRow + 1)) if (INTERRUPT_HINT.test(row)) return true;
    if (turnEndedInError(layout) !== null) return false;
  }
  const above = boxRow === -1 ? lastRowsBefore(layout, texts.length, BOTTOM_WINDOW) : lastRowsBefore(layout, boxRow, SPINNER_WINDOW);
  for (let i = above.length - 1; i >= 0; i--) {
    const row = above[i]!;
    // A line is a turn's end only without a running status (`✻ Thinking for 12s… (esc to interrupt)` runs).
    if ((TURN_END.test(row) && !isSpinnerLine(row)) || ENTRY_AFTER.test(row)) return false;
    if (isSpinnerLine(row) || WAITING_FOR_AGENTS.test(row)) return true;
    if (boxRow === -1 && INTERRUPT_HINT.test(row)) return true;
  }
  return false;
}

const RESUME_HINT = 'Resume this session with:';

/** The resume hint printed on exit, below any box still drawn (classic renderer keeps it). */
function isExited(layout: ScreenLayout): boolean {
  for (let r = layout.texts.length - 1; r > layout.boxLastRow; r--) {
    if (layout.texts[r]!.trimStart().startsWith(RESUME_HINT)) return true;
  }
  return false;
}

/**
 * Claude Code's own last row: its mode line (`⏵⏵ auto mode on (shift+tab to cycle)`, `⏸ manual
 * mode on · ? for shortcuts · ← for agents`, `? for shortcuts`), drawn indented under the box and
 * any status line. Column-0 text above it is a custom status line, not the shell after an exit.
 */
const LIVE_FOOTER = /^\s+(?:⏵⏵\s|⏸\s|\? for shortcuts\b|esc to interrupt\b|.*\b(?:auto|plan|manual) mode on\b|.*\baccept edits on\b|.*\bbypass permissions on\b|.*\(shift\+tab to cycle\)|.*· ← for agents\b)/u;

export const claudeCodeSpec: ScreenProfileSpec = {
  name: 'claude',
  aliases: ['claude-code'],
  box: CLAUDE_BOX,
  blockers: CLAUDE_BLOCKERS,
  liveFooter: LIVE_FOOTER,
  isWorking,
  isExited,
  backgroundTasks: claudeBackgroundTasks,
  forVersion(version) {
    if (parseClaudeVersion(version) === null) return undefined;
    const era = nearestCorpusVersion(version);
    return { ...claudeCodeSpec, name: `claude@${era}`, box: { ...CLAUDE_BOX, glyphs: promptGlyphsFor(version), placeholders: placeholdersFor(parseClaudeVersion(version)) }, forVersion: undefined };
  },
};
