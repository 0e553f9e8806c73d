import { describe, expect, it } from 'vitest';
import { countIndexEntries, indexRuleRefusal, statesIndexChecked, INDEX_CHECKED_LINE, type IndexFacts } from '../../io/brief/index.ts';

const facts = (root: number, project: number): IndexFacts => ({ root: { path: '/d/index.md', entries: root, files: [] }, project: { path: '/d/index/app.md', entries: project, files: [] } });

describe('the index rule', () => {
  it('counts only entry lines of an index', () => {
    const text = '# Index\n\nA table of contents.\n\n- `data/specs/brand.md` - brand spec (added 2026-01-02)\n- not an entry\n- `data/x.md` - x\n';
    expect(countIndexEntries(text)).toBe(2);
    expect(countIndexEntries('# Index\n\nA table of contents.\n')).toBe(0);
  });

  it('does not apply when neither index lists anything', () => {
    expect(indexRuleRefusal({ readFirstLines: [], chosenReadFiles: 0, facts: facts(0, 0) })).toBeNull();
  });

  it('refuses a brief that names nothing while an index lists files, naming both indexes and the line to add', () => {
    const r = indexRuleRefusal({ readFirstLines: ['- see the code'], chosenReadFiles: 0, facts: facts(0, 3) });
    expect(r?.code).toBe('index-not-consulted');
    expect(r?.message).toContain('/d/index.md');
    expect(r?.message).toContain('/d/index/app.md');
    expect(r?.message).toContain(INDEX_CHECKED_LINE);
  });

  it('is met by a read path the caller chose', () => {
    expect(indexRuleRefusal({ readFirstLines: [], chosenReadFiles: 1, facts: facts(2, 0) })).toBeNull();
  });

  it('is met by one stated line that the index was checked', () => {
    expect(indexRuleRefusal({ readFirstLines: ['', INDEX_CHECKED_LINE], chosenReadFiles: 0, facts: facts(2, 2) })).toBeNull();
  });

  it('accepts paraphrases with read / reviewed / consulted and plural indexes', () => {
    expect(statesIndexChecked('- I read both indexes; none of it applies.')).toBe(true);
    expect(statesIndexChecked('Reviewed the index: no entries apply.')).toBe(true);
    expect(statesIndexChecked('Consulted the INDEX - nothing relevant.')).toBe(true);
  });

  it('refuses loose wording: no verb of looking, a hyphenated search-index, or no word of absence', () => {
    expect(statesIndexChecked('- search index ... nothing')).toBe(false);
    expect(statesIndexChecked('- checked the search-index, nothing applies')).toBe(false);
    expect(statesIndexChecked('- checked the index, it is fine')).toBe(false);
    expect(statesIndexChecked('- checked the indexer, nothing')).toBe(false);
  });
});
