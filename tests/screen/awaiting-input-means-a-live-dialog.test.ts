/**
 * Awaiting input = a prompt, menu or dialog on the live part of the viewport (control-plane
 * §3.2), startup dialogs included. A blank screen is never awaiting input; dialog phrases in the
 * transcript above a live box are history, not a prompt. A dialog that offers choices counts once
 * its end is drawn (its options, a key hint, its closing border or rule): its words alone are a
 * frame caught part way (a-dialog-caught-before-its-choices-are-drawn-is-not-yet-a-question).
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain, UNREADABLE_READING } from '../../io/screen/index.ts';
import { BOX, CARET, RULE, idleScreen, screenOf } from './helpers.ts';

const WIDE = 'Claude Code v2.1.332 · Opus 5.5 · API Usage Billing · /srv/sample/repo';

describe('the reference signatures each mark a screen as awaiting input', () => {
  const signatures: [string, string][] = [
    ['Enter to select', 'menu'],
    ['Enter to confirm', 'dialog'],
    ['5. Chat about this', 'question'],
    ['4. Type something.', 'question'],
    ['Do you want to proceed?', 'permission'],
    ['Esc to cancel', 'dialog'],
    ['↑/↓ to navigate', 'menu'],
  ];
  it.each(signatures)('%j alone on a dialog screen, under its rule, → blocked (%s)', (phrase, reason) => {
    const reading = analyseScreen(screenOf(WIDE, RULE, ` ${phrase}`, RULE));
    expect(reading.awaitingInput).toBe(true);
    expect(reading.blockedReason).toBe(reason);
    expect(reading.state).toBe('blocked');
  });

  it('the words of a permission with nothing drawn under them yet are not yet a question: could not tell', () => {
    const reading = analyseScreen(screenOf(WIDE, RULE, ' Do you want to proceed?'));
    expect([reading.state, reading.awaitingInput, reading.blockedReason, reading.dialog]).toEqual(['unknown', false, null, null]);
    // Its first option drawn, the second not yet: still being drawn.
    expect(analyseScreen(screenOf(WIDE, RULE, ' Do you want to proceed?', ` ${CARET} 1. Yes`)).state).toBe('unknown');
    // The rest of the frame makes it the question, with its options.
    const whole = analyseScreen(screenOf(WIDE, RULE, ' Do you want to proceed?', ` ${CARET} 1. Yes`, '   2. No'));
    expect([whole.state, whole.blockedReason, whole.dialog?.options.length]).toEqual(['blocked', 'permission', 2]);
  });

  it('signatures are case-sensitive, as in the reference (`enter to select` in prose is not one)', () => {
    const reading = analyseScreen(screenOf(WIDE, ' press enter to select a file, or esc to cancel'));
    expect(reading.awaitingInput).toBe(false);
  });
});

describe('startup dialogs are blocked with their own reason, never idle', () => {
  it('bypass-permissions warning (herdr.md §3 wording)', () => {
    const reading = analyseScreen(
      screenOf(WIDE, ' WARNING: Claude Code running in Bypass Permissions mode', '   1. No, exit', ` ${CARET} 2. Yes, I accept`),
    );
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'bypass-warning']);
  });

  it('the 2.1.197 folder trust wording (numbered options) is folder-trust', () => {
    const reading = analyseScreen(screenOf(WIDE, ` ${CARET} 1. Yes, I trust this folder`, '   2. No, exit'));
    expect(reading.blockedReason).toBe('folder-trust');
  });

  it('the ≤2.1.12 folder trust wording is folder-trust', () => {
    const reading = analyseScreen(screenOf(WIDE, ' Do you trust the files in this folder?', ` ${CARET} 1. Yes, proceed`, '   2. No, exit'));
    expect(reading.blockedReason).toBe('folder-trust');
  });

  it('a bare "Press Enter to continue" without the security notes is a generic dialog', () => {
    const reading = analyseScreen(screenOf(WIDE, ' Press Enter to continue'));
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'dialog']);
  });

  it('a question whose own text says "Do you want to" is still a question', () => {
    const reading = analyseScreen(
      screenOf(WIDE, RULE, 'Do you want to use SQLite?', `${CARET} 1. Yes`, '  2. Type something.', RULE, '  3. Chat about this'),
    );
    expect(reading.blockedReason).toBe('question');
  });
});

describe('only the live part of the screen can await input', () => {
  it('a dialog phrase in the transcript above a live box is history: idle', () => {
    const reading = analyseScreen(
      idleScreen({ transcript: ['● Do you want to run the tests? Press Enter to select, Esc to cancel.', '✻ Baked for 4s · done 8:15 AM'] }),
    );
    expect(reading.awaitingInput).toBe(false);
    expect(reading.state).toBe('idle');
  });

  it('a form in the footer below the box is live: blocked', () => {
    const reading = analyseScreen(idleScreen({ footer: ['  Enter to confirm · Esc to cancel'] }));
    expect(reading.awaitingInput).toBe(true);
    expect(reading.state).toBe('blocked');
  });

  it('with no box on screen, the whole viewport is live', () => {
    const reading = analyseScreen(screenOf('● I will run a command.', RULE, ' Do you want to make this edit to parser.ts?', ` ${CARET} 1. Yes`, '   2. No'));
    expect(reading.blockedReason).toBe('permission');
  });
});

describe('a blank or failed screen is not awaiting input', () => {
  it('an empty capture reads unknown, unreadable, nothing awaited', () => {
    for (const text of ['', '\n\n\n', '   \n  \n']) {
      const reading = analyseScreen(parsePlain(text));
      expect([reading.state, reading.awaitingInput, reading.readable, reading.promptBox]).toEqual(['unknown', false, false, null]);
      expect(reading).toEqual(UNREADABLE_READING);
    }
  });

  it('a finished worker with an empty box is not awaiting input', () => {
    const reading = analyseScreen(idleScreen({ transcript: ['● Done: the tests pass.', '✻ Cooked for 17s · done 8:14 AM'] }));
    expect(reading.awaitingInput).toBe(false);
    expect(reading.promptBox).toBe('');
  });

  it('the box itself holding a dialog phrase is not a dialog', () => {
    const reading = analyseScreen(idleScreen({ boxRow: `${BOX}Do you want to proceed? Enter to select` }));
    expect(reading.awaitingInput).toBe(false);
    expect(reading.promptBoxKind).toBe('typed');
  });
});

describe("a permission dialog's footer left behind is no dialog", () => {
  // Seen in a suite run: after Enter on 2.1.197's "Do you want to create report.md?", its last
  // rows stayed on screen for half a second while the tool ran, and a wait for settled woke on
  // "blocked (dialog)" with no question and no options.
  const transcript = ['❯ Read the brief at /srv/state/brief.md', '', '● I will write the report.', '', '● Write(/srv/state/report.md)', ''];
  const remnant = [...transcript, '                                                        ● high · /effort', '   3. No', '', ' Esc to cancel · Tab to amend'];

  it('its footer and last option alone: not blocked', () => {
    const reading = analyseScreen(screenOf(...remnant));
    expect(reading.awaitingInput).toBe(false);
    expect(reading.state).not.toBe('blocked');
  });

  it('with its options on screen and its question clipped off the top: permission', () => {
    const reading = analyseScreen(screenOf(...transcript, `${CARET} 1. Yes`, '   2. Yes, allow all edits during this session (shift+tab)', '   3. No', '', ' Esc to cancel · Tab to amend'));
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'permission']);
  });

  it('a text form with the same words but no amend hint is still a dialog', () => {
    const reading = analyseScreen(screenOf(...transcript, ' Name the session:', ' > ', '', ' Enter to confirm · Esc to cancel'));
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'dialog']);
  });
});
