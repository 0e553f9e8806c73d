import { describe, expect, it } from 'vitest';
import { parseDeclaredBaseBranch } from '../../io/git/declared-base-branch.ts';

const declared = (branch: string) => ({ kind: 'declared', branch });
const none = { kind: 'none' };

describe('the .no-mistakes.yaml reader is narrow: block pr:, immediate base_branch child', () => {
  it.each([
    ['block form', 'pr:\n  base_branch: dev\n', declared('dev')],
    ['first child fixes the indent', 'pr:\n    draft: true\n    base_branch: dev\n', declared('dev')],
    ['grandchildren are not immediate children', 'pr:\n  opts:\n    base_branch: dev\n', none],
    ['double-quoted value takes what is between the quotes', 'pr:\n  base_branch: "dev # not a comment"\n', declared('dev # not a comment')],
    ['single-quoted value', "pr:\n  base_branch: 'release/1.2'\n", declared('release/1.2')],
    ['unquoted value loses a trailing comment', 'pr:\n  base_branch: dev   # integration\n', declared('dev')],
    ['a # glued to a word is part of the value', 'pr:\n  base_branch: dev#2\n', declared('dev#2')],
    ['empty value is no declaration', 'pr:\n  base_branch:\n', none],
    ['empty quotes are no declaration', 'pr:\n  base_branch: ""\n', none],
    ['BOM tolerated', '\uFEFFpr:\n  base_branch: dev\n', declared('dev')],
    ['CRLF tolerated', 'pr:\r\n  base_branch: dev\r\n', declared('dev')],
    ['blank lines and comments inside the block', 'pr:\n\n  # note\n  base_branch: dev\n', declared('dev')],
    ['a comment mentioning base_branch is not a declaration', '# base_branch: dev\npr:\n  # base_branch: dev\n  draft: true\n', none],
    ['the next top-level key ends the block', 'pr:\n  draft: true\nbase_branch: dev\n', none],
    ['an indented pr: is not top level', 'ci:\n  pr:\n    base_branch: dev\n', none],
    ['pr: {} is no declaration', 'pr: {}\n', none],
    ['pr: null is no declaration', 'pr: null\n', none],
    ['pr: {draft: true} is no declaration', 'pr: {draft: true}\n', none],
    ['a nested base_branch in a flow mapping is no declaration', 'pr: {opts: {base_branch: dev}}\n', none],
    ['a flow mapping followed by a comment naming base_branch', 'pr: {draft: true} # base_branch: dev\n', none],
    ['no pr key at all', 'review:\n  strict: true\n', none],
  ])('%s', (_name, text, expected) => {
    expect(parseDeclaredBaseBranch(text)).toEqual(expected);
  });

  it.each([
    ['pr: {base_branch: dev} is refused: write the block form', 'pr: {base_branch: dev}\n', /block form/],
    ['a quoted key in a flow mapping is refused too', 'pr: {draft: true, "base_branch": dev}\n', /block form/],
    ['a flow mapping whose braces do not balance on its line is refused', 'pr: {draft: true,\n  base_branch: dev}\n', /do not balance/],
    ['an unclosed quote is refused', 'pr:\n  base_branch: "dev\n', /unclosed quote/],
  ])('%s', (_name, text, reason) => {
    const r = parseDeclaredBaseBranch(text);
    expect(r.kind).toBe('refused');
    expect(r.kind === 'refused' && r.reason).toMatch(reason);
  });
});
