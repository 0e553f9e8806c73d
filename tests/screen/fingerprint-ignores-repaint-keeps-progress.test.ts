/**
 * The progress fingerprint (control-plane §3.6) is equal across repaints that mean nothing
 * (timers, token counters, spinner frames, trailing whitespace) and different when anything
 * else changes — digits included, so `142/300` → `143/300` is progress.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, fingerprintScreen, lastActivity, parsePlain, screenFromLines } from '../../io/screen/index.ts';
import { BOX, RULE, fixtureScreen, fixtureText, screenOf } from './helpers.ts';

function working(spinner: string, toolLine = '  ⎿  $ npm test -- --run'): string[] {
  return ['❯ MODE:slow run the suite', '● Running the tests.', toolLine, spinner, RULE, BOX, RULE, '  ⏸ manual mode on · esc to interrupt'];
}

const fp = (rows: string[]): string => fingerprintScreen(screenOf(...rows));

describe('timer and token repaints give the same fingerprint', () => {
  it('the reference pair: (esc to interrupt * 1m 23s * 1.2k tokens) vs (… * 12m 4s * 3.1k tokens)', () => {
    expect(fp(working('✻ Working… (esc to interrupt * 1m 23s * 1.2k tokens)'))).toBe(
      fp(working('✻ Working… (esc to interrupt * 12m 4s * 3.1k tokens)')),
    );
  });

  it('seconds, hours+minutes and token counts with arrows', () => {
    const a = fp(working('✢ Transfiguring… (2s · ↓ 4 tokens)'));
    expect(fp(working('✢ Transfiguring… (47s · ↓ 138 tokens)'))).toBe(a);
    expect(fp(working('✢ Transfiguring… (1h 4m · ↓ 105.4k tokens)'))).toBe(a);
  });

  it('spinner frames · ✢ * ✶ ✻ ✽ ✳ all fingerprint alike (a hung turn must be able to look stalled)', () => {
    const frames = ['·', '✢', '*', '✶', '✻', '✽', '✳'].map((g) => fp(working(`${g} Undulating… (3m 20s · ↓ 6 tokens)`)));
    expect(new Set(frames).size).toBe(1);
  });

  it('the classic captures 05-working-spinner-a and -b (glyph, seconds, tokens differ) fingerprint alike', () => {
    expect(fingerprintScreen(fixtureScreen('2.1.332-classic/05-working-spinner-a.txt'))).toBe(
      fingerprintScreen(fixtureScreen('2.1.332-classic/05-working-spinner-b.txt')),
    );
  });
});

describe('real change changes the fingerprint', () => {
  it('142/300 → 143/300 is progress', () => {
    expect(fp(working('✻ Working… (5s)', '  ⎿  142/300 tests passed'))).not.toBe(fp(working('✻ Working… (5s)', '  ⎿  143/300 tests passed')));
  });

  it('a changed tool-call line is progress', () => {
    expect(fp(working('✻ Working… (5s)', '  ⎿  $ npm test'))).not.toBe(fp(working('✻ Working… (5s)', '  ⎿  $ npm run lint')));
  });

  it('the clock in a finished line is kept (digits other than timers are content)', () => {
    expect(fp(['✻ Baked for 4s · done 8:15 AM', RULE])).not.toBe(fp(['✻ Baked for 4s · done 8:16 AM', RULE]));
  });
});

describe('whitespace and the reader do not change the fingerprint', () => {
  it('trailing whitespace and blank lines do not matter', () => {
    const rows = working('✻ Working… (5s)');
    expect(fp(rows.map((r) => `${r}   \t`).concat(['', '', '   ']))).toBe(fp(rows));
  });

  it('collapsed inner whitespace does not matter', () => {
    expect(fp(['●  two   spaces', RULE])).toBe(fp(['● two spaces', RULE]));
  });

  it('an xterm read (padded rows, cursor cell) fingerprints like the tmux capture', () => {
    const tmux = fixtureScreen('2.1.332/08-turn-finished.txt');
    const padded = fixtureText('2.1.332/08-turn-finished.txt')
      .split('\n')
      .slice(0, 40)
      .map((line) => ({ text: line.endsWith('\u00A0') ? `${line} `.padEnd(120) : line.padEnd(120) }));
    expect(fingerprintScreen(screenFromLines(padded, 120, 40))).toBe(fingerprintScreen(tmux));
  });
});

describe('the fingerprint fails closed and has a fixed shape', () => {
  it('16 lowercase hex characters', () => {
    expect(fp(working('✻ Working… (5s)'))).toMatch(/^[0-9a-f]{16}$/);
  });

  it('an unreadable (narrow) screen has no fingerprint and no last activity', () => {
    const reading = analyseScreen(screenOf('─'.repeat(20), BOX, '─'.repeat(20)));
    expect([reading.readable, reading.fingerprint, reading.lastActivity]).toEqual([false, '', '']);
  });
});

describe('last activity is the last three normalised lines', () => {
  it('joined with " | ", timers stripped, whitespace collapsed', () => {
    const screen = parsePlain(['● Running the whole test suite, which takes a while here.', '✻ Working… (1m 3s · ↓ 9 tokens)', 'row    three', 'row four', ''].join('\n'));
    expect(lastActivity(screen)).toBe('Working… ( ↓ ) | row three | row four');
    expect(analyseScreen(screen).lastActivity).toBe('Working… ( ↓ ) | row three | row four');
  });
});
