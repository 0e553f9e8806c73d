/**
 * Rule (issue 21, class 2): the placeholder Claude Code puts in the empty box after an API error
 * ("Resend your message to try again") is no text in the box. The placeholder list is named and
 * version-bound (io/screen/profiles/claude-code.ts, CLAUDE_PLACEHOLDERS), like `Try "…"`; a
 * placeholder is drawn as the empty box draws it — the cursor cell at the box start, the rest dim.
 * With attributes, the same words drawn as plain text were typed by someone: typed, refused.
 * Screens: the real 2.1.332 API-error capture with only its box row changed.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, getProfile, parseAnsi, readPromptBox } from '../../io/screen/index.ts';
import { CLAUDE_PLACEHOLDERS } from '../../io/screen/profiles/claude-code.ts';
import { fixtureText } from './helpers.ts';
import { plainScreen, rowWhere, rowsOf } from './variants.ts';

const PLACEHOLDER = 'Resend your message to try again';
const CAPTURE = '2.1.332/12-api-error-400';

function withBoxRow(ansiRow: string) {
  const rows = fixtureText(`${CAPTURE}.ansi.txt`).split('\n');
  const plain = rowsOf(`${CAPTURE}.txt`);
  const at = rowWhere(plain, (r) => r.startsWith('❯') && r.trim().length <= 2);
  rows[at] = ansiRow;
  return parseAnsi(rows.join('\n'));
}

/** As Claude Code draws a hint in the empty box: the inverse cursor on its first cell, the rest dim. */
const dimHint = (text: string) => `\x1b[39m❯\u00a0\x1b[7m${text[0]}\x1b[0;2m\x1b[39m\x1b[49m${text.slice(1)}\x1b[0m`;
/** As typed text is drawn: plain, the cursor cell after it. */
const typed = (text: string) => `\x1b[39m❯\u00a0${text}\x1b[7m \x1b[0m`;

describe('a named placeholder in the box is an empty box', () => {
  it('the list is named, each entry with the versions it was seen in', () => {
    const names = CLAUDE_PLACEHOLDERS.map((p) => p.name);
    expect(names).toContain('resend-after-api-error');
    expect(names).toContain('try-example');
    expect(new Set(names).size).toBe(names.length);
  });

  it('after an API error the dim "Resend your message…" hint reads as the empty box (SGR)', () => {
    const screen = withBoxRow(dimHint(PLACEHOLDER));
    const reading = analyseScreen(screen);
    expect(reading.state).toBe('idle');
    expect(reading.promptBox).toBe('');
    expect(reading.promptBoxKind).toBe('placeholder');
    expect(reading.agentError).toMatch(/API Error: 400/);
    expect(readPromptBox(screen)).toEqual({ text: '', kind: 'placeholder' });
  });

  it('with a trailing full stop too (the same hint, punctuated)', () => {
    expect(readPromptBox(withBoxRow(dimHint(`${PLACEHOLDER}.`)))).toEqual({ text: '', kind: 'placeholder' });
  });

  it('plain capture: the hint words alone are the placeholder (nothing else draws them in the box)', () => {
    const plain = rowsOf(`${CAPTURE}.txt`);
    const at = rowWhere(plain, (r) => r.startsWith('❯') && r.trim().length <= 2);
    plain[at] = `❯\u00a0${PLACEHOLDER}`;
    const reading = analyseScreen(plainScreen(plain));
    expect(reading.promptBox).toBe('');
    expect(reading.promptBoxKind).toBe('placeholder');
  });

  it('the same words drawn as typed text (not dim) are typed: a send is refused', () => {
    expect(readPromptBox(withBoxRow(typed(PLACEHOLDER)))).toEqual({ text: PLACEHOLDER, kind: 'typed' });
  });

  it('an unnamed dim hint is still a suggestion (the refusing side), never an empty box', () => {
    expect(readPromptBox(withBoxRow(dimHint('Resend it all to somebody else')))).toEqual({ text: 'Resend it all to somebody else', kind: 'suggestion' });
  });

  it('a version before an entry was seen does not take it: claude@2.0.0 reads "Message @…" as a suggestion', () => {
    const bound = CLAUDE_PLACEHOLDERS.find((p) => p.name === 'message-agent');
    expect(bound?.since).toBe('2.1.197');
    const row = dimHint('Message @explorer\u2026');
    expect(getProfile('claude@2.0.0').readPromptBox(withBoxRow(row))?.kind).toBe('suggestion');
    expect(getProfile('claude@2.1.332').readPromptBox(withBoxRow(row))?.kind).toBe('placeholder');
    expect(getProfile('claude').readPromptBox(withBoxRow(row))?.kind).toBe('placeholder');
  });
});
