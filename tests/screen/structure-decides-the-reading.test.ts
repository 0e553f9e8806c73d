/**
 * The reading comes from the screen's structure, so that versions and capture paths we have not
 * seen read right: the box is the row between the last two rules (a bare glyph there is the empty
 * box after a trim), a menu is a cursor over numbered options wherever it sits, and only what is
 * below the last turn can be a live prompt. Screens here are modelled on the shapes named in
 * claude-code.md §3/§6 and herdr.md §3 (herdr's issue threads for the footer-less dialogs).
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, readPromptBox } from '../../io/screen/index.ts';
import { BOX, CARET, NBSP, RULE, idleScreen, screenOf } from './helpers.ts';

const HEADER = ' ▐▛███▜▌   Claude Code v2.1.50 · Opus 4.5 · API Usage Billing · /srv/repo';
const state = (...rows: string[]) => analyseScreen(screenOf(...rows));

describe('an empty box whose NBSP was trimmed (bare glyph between the last two rules) is idle', () => {
  it('a finished worker with a bare `❯` box reads idle, so it settles instead of stalling', () => {
    const reading = state(HEADER, '❯ fix the parser', '● Fixed.', '✻ Worked for 4s', RULE, CARET, RULE, '  ? for shortcuts');
    expect([reading.state, reading.promptBox, reading.promptBoxKind]).toEqual(['idle', '', 'empty']);
  });

  it('a bare `❯` box under a labelled top rule reads idle', () => {
    for (const top of ['──── ◐ medium · /effort ─', '── vim ──────────────────', '─────────── (bypass permissions on) ─']) {
      expect(state(HEADER, '● Done.', top, CARET, RULE, '  ? for shortcuts').state, top).toBe('idle');
    }
  });

  it('custom status lines and a background-agent panel below the box do not hide it', () => {
    const status = ['  ~/repo on main · Opus 4.5 · $0.12', '──────────────────────────────', '  ctx 12% · 3 files changed'];
    expect(state(HEADER, '● Done.', RULE, CARET, RULE, ...status).state).toBe('idle');
    const panel = ['  ● main      ↑/↓ to select · Enter to view', '  ◯ Explore   Investigate repo and report   33s · ↓ 225 tokens'];
    expect(state(HEADER, '● Done.', RULE, `${CARET}${NBSP}`, RULE, ...panel).state).toBe('idle');
  });

  it('a vim mode indicator and a recap notice around the box change nothing', () => {
    expect(state(HEADER, '※ recap: fixed the parser (disable recaps in /config)', RULE, CARET, RULE, '  -- INSERT --').state).toBe('idle');
  });

  it('2.0.0 draws the box as `>` + NBSP; trimmed it is a bare `>` between the rules', () => {
    expect(readPromptBox(screenOf(HEADER, RULE, `>${NBSP}Try "fix lint errors"`, RULE))).toEqual({ text: '', kind: 'placeholder' });
    expect(readPromptBox(screenOf(HEADER, RULE, `>${NBSP}half typed`, RULE))).toEqual({ text: 'half typed', kind: 'typed' });
    expect(state(HEADER, '> fix it', '● Done.', RULE, '>', RULE, '  ? for shortcuts').state).toBe('idle');
  });

  it('1.x draws the box in a rounded frame: `│ > text │` between `╭─╮` and `╰─╯`', () => {
    const top = '╭' + '─'.repeat(78) + '╮';
    const bottom = '╰' + '─'.repeat(78) + '╯';
    expect(readPromptBox(screenOf(HEADER, top, `│ >${NBSP}run the tests` + ' '.repeat(60) + '│', bottom))).toEqual({ text: 'run the tests', kind: 'typed' });
    expect(state(HEADER, '● Done.', top, '│ >' + ' '.repeat(75) + '│', bottom, '  ? for shortcuts').state).toBe('idle');
  });

  it('an echoed prompt (glyph + plain space) between two rules is not the box', () => {
    expect(readPromptBox(screenOf(HEADER, RULE, `${CARET} run the tests`, RULE))).toBeNull();
  });
});

describe('a menu is a cursor over numbered options, with or without a footer', () => {
  it('an MCP tool permission (`… wants to …`, `❯ 1. Allow`, `2. Deny (esc)`, no footer) is blocked', () => {
    const reading = state(HEADER, '❯ open the page', '● I will open it.', RULE, ' Claude in Chrome wants to navigate to example.com', ` ${CARET} 1. Allow`, '   2. Deny (esc)');
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'permission']);
  });

  it('a bare "Would you like to …?" numbered choice is blocked', () => {
    const reading = state(HEADER, '❯ plan it', '● Here is the plan.', RULE, ' Would you like to proceed?', ` ${CARET} 1. Yes, and auto-accept edits`, '   2. Yes, and manually approve edits', '   3. No, keep planning');
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'permission']);
  });

  it('an unnumbered "Would you like to …?" choice is blocked', () => {
    const reading = state(HEADER, '❯ save it', '● Ready.', RULE, ' Would you like to save the session?', `  ${CARET} Yes`, '    No');
    expect(reading.state).toBe('blocked');
  });

  it('a numbered menu with unknown words is still a menu', () => {
    const reading = state(HEADER, RULE, ' Pick a colour for the theme', ` ${CARET} 1. Red`, '   2. Blue');
    expect([reading.state, reading.blockedReason]).toEqual(['blocked', 'menu']);
  });

  it('"wants to" in prose with no menu is not a prompt', () => {
    const reading = state(HEADER, '❯ explain', '● The user wants to know why. Would you like to see more?', RULE, CARET, RULE);
    expect(reading.state).toBe('idle');
  });
});

describe('only what is below the last turn can be a live prompt', () => {
  it('a stale permission prompt above a live (bare) box reads idle', () => {
    const reading = state(HEADER, ' Do you want to proceed?', ` ${CARET} 1. Yes`, '   2. No', ' Esc to cancel · Tab to amend', '● Ran it.', RULE, CARET, RULE, '  ? for shortcuts');
    expect(reading.state).toBe('idle');
  });

  it('with no box on screen, a dialog of an earlier turn above the last prompt is history', () => {
    const reading = state(HEADER, ' Do you want to proceed?', ` ${CARET} 1. Yes`, '   2. No', '❯ go on', '● Working on it', '  ⎿  Running…');
    expect(reading.state).toBe('unknown');
  });

  it('a dialog below the last prompt is live', () => {
    const reading = state(HEADER, '❯ make a file', '● I will run a command.', RULE, ' Bash command', ' Do you want to proceed?', ` ${CARET} 1. Yes`, '   2. No');
    expect(reading.state).toBe('blocked');
  });
});

describe('working is read from other versions\' spinners too', () => {
  const spinners = ['✳ Pondering… (thinking)', '∗ Noodling… (12s · ↑ 1.2k tokens · esc to interrupt)', '✻ Compacting conversation... (3s)'];
  it.each(spinners)('%j above the box means working', (line) => {
    expect(analyseScreen(idleScreen({ transcript: ['❯ go', line], footer: ['  ⏸ manual mode on'] })).state).toBe('working');
  });

  it('"Waiting for N background agents to finish" above the box means working', () => {
    expect(analyseScreen(idleScreen({ transcript: ['● Started two agents.', '✻ Waiting for 2 background agents to finish'] })).state).toBe('working');
    expect(analyseScreen(idleScreen({ transcript: ['● Started one.', '✻ Waiting for 1 background agent to finish'], boxRow: CARET })).state).toBe('working');
  });
});

describe('could-not-tell stays could-not-tell', () => {
  it('a readable screen with rules but nothing recognisable between them is unknown', () => {
    expect(state(HEADER, RULE, '  some panel text', RULE).state).toBe('unknown');
  });

  it('a bare glyph with no rules around it is unknown, not idle', () => {
    expect(state(HEADER, '● Done.', CARET).state).toBe('unknown');
  });

  it('the box reading of BOX itself is unchanged', () => {
    expect(readPromptBox(idleScreen({ boxRow: `${BOX}x` }))).toEqual({ text: 'x', kind: 'typed' });
  });
});

describe('the reader picks the profile of the nearest corpus version', () => {
  it('a worker older than 2.0.77 reads `>` + NBSP as its box and a 2.1 worker does not', () => {
    const screen = screenOf(HEADER, RULE, `>${NBSP}half typed`, RULE);
    expect(analyseScreen(screen, 'claude@2.0.50').promptBox).toBe('half typed');
    expect(analyseScreen(screen, 'claude@2.1.300').promptBox).toBeNull();
    expect(analyseScreen(screen, 'claude').promptBox).toBe('half typed');
  });

  it('a version newer than the corpus reads with the newest profile; junk falls back to the general one', () => {
    const screen = screenOf(HEADER, RULE, CARET, RULE);
    expect(analyseScreen(screen, 'claude@9.9.9').state).toBe('idle');
    expect(analyseScreen(screen, 'claude@not-a-version')).toEqual(analyseScreen(screen, 'claude'));
  });
});
