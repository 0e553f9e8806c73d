/**
 * Rule (issue 40): what the person decides on in a brief carries ids by its section — R- for
 * `## Requirements`, C- for `## Browser checks`, Q- for `## Questions` (or open questions or
 * decisions) — a line's own id is kept, the others are numbered into the ids still free, headings
 * in fenced blocks do not count, and a check's `[interact]` lets it do more than read. A brief with
 * browser checks is told the exact command that runs them, once.
 */
import { describe, expect, it } from 'vitest';
import { briefItems, browserChecksOf } from '../../io/brief/brief-items.ts';
import { browserCheckSection, CHECKS_HEADING, withBrowserCheckConvention } from '../../io/brief/browser-check-convention.ts';

const BRIEF = `# Brief

## Requirements

- The basket shows its total.
* Empty baskets say so.
1. Totals round to cents.

Some prose that is not an item.

## Browser checks

- C-003: the settings page lists "Dark mode"
- the home page greets the person
- C-003: a repeated id is numbered like any other line
- C-010 clicking Save says "Saved" [interact]

\`\`\`
## Requirements
- fenced: not an item
\`\`\`

## Open questions

- Should the total include tax?

### A sub-heading ends the section

- not a question
`;

describe("a brief's items carry ids by their section", () => {
  it('numbers R-, C- and Q- items, keeps a line\'s own id, skips fenced headings', () => {
    expect(briefItems(BRIEF).map((i) => `${i.id} ${i.text}`)).toEqual([
      'R-001 The basket shows its total.',
      'R-002 Empty baskets say so.',
      'R-003 Totals round to cents.',
      'C-003 the settings page lists "Dark mode"',
      'C-001 the home page greets the person',
      'C-002 a repeated id is numbered like any other line',
      'C-010 clicking Save says "Saved" [interact]',
      'Q-001 Should the total include tax?',
    ]);
  });

  it('a browser check only reads unless its line says [interact]', () => {
    expect(browserChecksOf(BRIEF).map((c) => [c.id, c.interact])).toEqual([['C-003', false], ['C-001', false], ['C-002', false], ['C-010', true]]);
    expect(browserChecksOf(BRIEF).at(-1)!.text).toBe('clicking Save says "Saved"');
  });

  it('a brief with browser checks gets the tool\'s exact command once; one without gets nothing', () => {
    const once = withBrowserCheckConvention(BRIEF, '/state/workers/w1/out');
    expect(once).toContain(browserCheckSection('/state/workers/w1/out', 'C-003'));
    expect(once.split(CHECKS_HEADING)).toHaveLength(2);
    expect(withBrowserCheckConvention(once, '/state/workers/w1/out')).toBe(once);
    // The section the convention adds holds no item of its own.
    expect(browserChecksOf(once)).toEqual(browserChecksOf(BRIEF));
    const plain = '# Brief\n\n## Read first\n\nNothing.\n';
    expect(withBrowserCheckConvention(plain, '/x')).toBe(plain);
  });
});
