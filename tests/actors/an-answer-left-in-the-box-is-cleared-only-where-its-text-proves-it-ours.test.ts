/**
 * Rule: an answer an earlier daemon typed is cleared only where the box's text proves it is ours
 * (issue 43, actors/decision-resume.ts). The answer itself, wrapped over rows, or its visible
 * start or end proves it; a person's half-typed line, a short fragment, or a paste marker that
 * does not name our length proves nothing, and is never wiped.
 */
import { describe, expect, it } from 'vitest';
import { boxProvesOurAnswer } from '../../actors/decision-resume.ts';

const answer = 'The person answered your question (decision p1-which-db-abc123): "Which database?" → SQLite. Carry on with the work on that basis.';

describe('an answer left in the box is cleared only where its text proves it ours', () => {
  it('the whole answer, wrapped over rows, proves it', () => {
    expect(boxProvesOurAnswer(answer.slice(0, 60) + '\n  ' + answer.slice(60), answer)).toBe(true);
  });
  it('its visible start or end (a box that scrolls) proves it', () => {
    expect(boxProvesOurAnswer(answer.slice(0, 40), answer)).toBe(true);
    expect(boxProvesOurAnswer(answer.slice(-40), answer)).toBe(true);
  });
  it("a person's text, a short fragment or a paste marker of another length proves nothing", () => {
    expect(boxProvesOurAnswer('use Postgres instead, and', answer)).toBe(false);
    expect(boxProvesOurAnswer('The', answer)).toBe(false);
    expect(boxProvesOurAnswer('[Pasted text #1 +3 lines]', answer)).toBe(false);
    expect(boxProvesOurAnswer('[Pasted Text: 12 chars]', answer)).toBe(false);
  });
  it('a paste marker naming our length does', () => {
    expect(boxProvesOurAnswer(`[Pasted Text: ${answer.length} chars]`, answer)).toBe(true);
  });
});
