import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { BOX, RULE, fixtureScreen, screenOf } from './helpers.ts';

describe('lastActivity is what the worker last said, not the box chrome', () => {
  it('an idle screen reports its last transcript lines, without the rules, box or footer', () => {
    const r = analyseScreen(fixtureScreen('2.1.332/08-turn-finished.txt'));
    expect(r.state).toBe('idle');
    expect(r.lastActivity).toContain('the turn completes.');
    expect(r.lastActivity).not.toContain('─');
    expect(r.lastActivity).not.toContain('manual mode on');
  });

  it('a dialog keeps its own lines (they are the news), minus frame-only rules', () => {
    const r = analyseScreen(fixtureScreen('2.1.332/07-ask-user-question.txt'));
    expect(r.lastActivity).toContain('Enter to select');
    expect(r.lastActivity).not.toMatch(/─{3}/);
  });

  it('normalisation still applies: timers and spinner glyphs are gone', () => {
    const r = analyseScreen(screenOf('● Working on the parser for a while now, please hold on', '✻ Baked for 12s · done 8:15 AM', RULE, BOX, RULE, '  ⏸ manual mode on · ? for shortcuts'));
    expect(r.lastActivity).toBe('Working on the parser for a while now, please hold on | Baked for done 8:15 AM');
  });
});
