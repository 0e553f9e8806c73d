/**
 * Rule (issue 21): a turn that ended in an API error (its retries spent) or a usage limit is
 * read from what is below the last turn's start, near the live box — never from a line further
 * up, never while the retries still count.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen } from '../../io/screen/index.ts';
import { idleScreen } from './helpers.ts';

const footer = ['  ⏸ manual mode on'];
const endings = [
  '  ⎿  API Error (Request timed out.) after 10 retries',
  '  ⎿  API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  '  ⎿  Claude usage limit reached. Your limit will reset at 5pm (Europe/Berlin).',
  "● You've hit your limit · resets 3am",
  // The plan's window by name (2.0-era wording) and the weekly one: a limit, not a finished turn.
  '  ⎿  5-hour limit reached ∙ resets 3am',
  "● You've hit your weekly limit · resets Mon 9am",
];

describe('a turn that ended in an API error is read as one', () => {
  it.each(endings)('%j as the last entry of the turn, above an empty box: idle with the message', (line) => {
    const r = analyseScreen(idleScreen({ transcript: ['❯ fix the tests', '● Reading the suite.', line], footer }));
    expect(r.state).toBe('idle');
    expect(r.agentError).toBe(line.replace(/^\s*(?:●|⎿)\s+/, '').trim());
  });

  it('an error still counting its retries is not an ended turn', () => {
    const r = analyseScreen(idleScreen({ transcript: ['❯ fix the tests', '  ⎿  API Error (Connection error.) · Retrying in 4 seconds… (attempt 3/10)'], footer }));
    expect(r.agentError ?? null).toBeNull();
  });

  it('an error in an earlier turn, followed by a turn that finished, is history', () => {
    const r = analyseScreen(idleScreen({
      transcript: ['❯ first', '  ⎿  API Error (Request timed out.) after 10 retries', '❯ try again', '● Done: all tests pass.', '✻ Worked for 12s'],
      footer,
    }));
    expect(r.agentError ?? null).toBeNull();
  });

  it('a finished turn that merely mentions an API error far above the box is not one', () => {
    const filler = Array.from({ length: 8 }, (_, i) => `● step ${i} of the fix`);
    const r = analyseScreen(idleScreen({ transcript: ['❯ explain', '● The log said API Error 529 yesterday.', ...filler], footer }));
    expect(r.agentError ?? null).toBeNull();
  });
});
