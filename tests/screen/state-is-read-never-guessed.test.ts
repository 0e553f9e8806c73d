/**
 * The Claude Code state: working (footer hint or live spinner), idle (live box, nothing running,
 * nothing awaited), blocked, exited, and unknown for anything else — idle is never a guess.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { BOX, CARET, RULE, fixtureText, idleScreen, screenOf } from './helpers.ts';
import { parsePlain } from '../../io/screen/index.ts';

const quietFooter = ['  ⏸ manual mode on'];

describe('working: the interrupt hint or a live spinner line', () => {
  it('the footer `esc to interrupt` alone means working', () => {
    expect(analyseScreen(idleScreen({ footer: ['  ⏸ manual mode on · esc to interrupt · ← for agents'] })).state).toBe('working');
  });

  const spinners = [
    '✢ Transfiguring…',
    '✻ Undulating…',
    '* Tomfoolering… (2s · ↓ 4 tokens)',
    '✶ Galloping… (1m 23s · ↓ 1.2k tokens)',
    '· Germinating… (12s)',
    '✽ Wandering… (esc to interrupt)',
    '✳ Scampering… (5s · ↓ 138 tokens)',
    '✻ Compacting conversation…',
  ];
  it.each(spinners)('a live spinner line %j above the box means working, even without the footer hint', (line) => {
    const reading = analyseScreen(idleScreen({ transcript: ['❯ MODE:slow spin', line, '  ⎿  Tip: Use /memory to view and manage Claude memory'], footer: quietFooter }));
    expect(reading.state).toBe('working');
  });

  const finished = ['✻ Baked for 4s · done 8:15 AM', '✻ Churned for 17s', '✳ Brewed for 9m 52s', '✻ Worked for 4s · 2 local agents still running'];
  it.each(finished)('a finished-turn line %j is not working', (line) => {
    const reading = analyseScreen(idleScreen({ transcript: ['● Hello.', line], footer: quietFooter }));
    expect(reading.state).toBe('idle');
  });

  it('a spinner-looking line far up the transcript (not near the box) is not working', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `● reply line ${i}`);
    const reading = analyseScreen(idleScreen({ transcript: ['✢ Transfiguring…', ...filler], footer: quietFooter }));
    expect(reading.state).toBe('idle');
  });

  it('`esc to interrupt` quoted in the transcript above the box is not working', () => {
    const reading = analyseScreen(idleScreen({ transcript: ['● The footer says "esc to interrupt" while a turn runs.'], footer: quietFooter }));
    expect(reading.state).toBe('idle');
  });

  it('the 05-working-spinner-start capture without its footer still reads working (spinner alone)', () => {
    const text = fixtureText('2.1.332/05-working-spinner-start.txt').replace('esc to interrupt · ', '');
    expect(analyseScreen(parsePlain(text)).state).toBe('working');
  });
});

describe('blocked beats working, exited beats everything', () => {
  it('a permission form under a running footer is blocked', () => {
    const reading = analyseScreen(screenOf(RULE, ' Do you want to proceed?', ` ${CARET} 1. Yes`, '   2. No', '  esc to interrupt'));
    expect(reading.state).toBe('blocked');
  });

  it('the resume hint below the last box means exited, and the dead box is not reported', () => {
    const reading = analyseScreen(screenOf(RULE, `${BOX}/exit`, RULE, 'Resume this session with:', 'claude --resume 30d23e35-020f-4223-8928-2393a0c64c91'));
    expect([reading.state, reading.promptBox, reading.promptBoxKind]).toEqual(['exited', null, null]);
  });

  it('the resume hint quoted in the transcript above a live box is not an exit', () => {
    const reading = analyseScreen(idleScreen({ transcript: ['Resume this session with: claude --resume <id> (from the docs)'] }));
    expect(reading.state).toBe('idle');
  });

  it("tmux's dead-pane line as the last row means exited (the screen after /exit with no turns)", () => {
    const reading = analyseScreen(screenOf('', '', 'Pane is dead (status 0, Mon Nov 30 08:16:07 2026)'));
    expect(reading.state).toBe('exited');
    expect(analyseScreen(screenOf('Pane is dead (signal 9, Mon Nov 30 08:16:07 2026)')).state).toBe('exited');
  });

  it('the dead-pane words anywhere but the last row are not an exit', () => {
    const reading = analyseScreen(idleScreen({ transcript: ['Pane is dead (status 0, Mon Nov 30 08:16:07 2026)'] }));
    expect(reading.state).toBe('idle');
  });
});

describe('unknown: anything else — idle is never guessed', () => {
  it('a readable screen with no box, no dialog, no spinner is unknown', () => {
    const reading = analyseScreen(screenOf('● Compiling the project, this takes a moment and prints nothing', '   building…'));
    expect(reading.state).toBe('unknown');
  });

  it('an idle box on a narrow (unreadable) pane is unknown, not idle', () => {
    const reading = analyseScreen(screenOf('─'.repeat(30), BOX, '─'.repeat(30), '  ? for shortcuts'));
    expect(reading.readable).toBe(false);
    expect(reading.state).toBe('unknown');
    expect(reading.promptBox).toBe('');
  });

  it('an unknown agent profile is a usage error, not a guess', () => {
    expect(() => analyseScreen(idleScreen(), 'no-such-agent')).toThrow(/unknown agent profile "no-such-agent"/);
  });

  it('the `claude-code` alias reads like `claude`', () => {
    expect(analyseScreen(idleScreen(), 'claude-code')).toEqual(analyseScreen(idleScreen(), 'claude'));
  });
});
