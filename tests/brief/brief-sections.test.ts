import { describe, expect, it } from 'vitest';
import { parseBrief } from '../../io/brief/index.ts';

describe('a brief needs a "## Read first" section', () => {
  it('finds the section and its lines up to the next heading', () => {
    const shape = parseBrief('# T-1 - x\n\n## Goal\ng\n\n## Read first\n- a\n- b\n\n## Scope\ns\n');
    expect(shape.readFirst).not.toBeNull();
    expect(shape.readFirst!.lines).toEqual(['- a', '- b', '']);
    expect(shape.lines[shape.readFirst!.end]).toBe('## Scope');
  });

  it('does not count a heading inside a fenced code block', () => {
    const shape = parseBrief('# T-1\n\n```md\n## Read first\n- nothing\n```\n\n## Goal\n');
    expect(shape.readFirst).toBeNull();
  });

  it('ignores fenced lines inside the section (a fenced statement proves nothing)', () => {
    const shape = parseBrief('## Read first\n```\n- the index was checked and nothing applies\n```\n- real\n');
    expect(shape.readFirst!.lines).toEqual(['- real', '']);
  });

  it('needs exactly "## Read first" as the heading text (no ### or trailing words)', () => {
    expect(parseBrief('### Read first\n').readFirst).toBeNull();
    expect(parseBrief('## Read first things\n').readFirst).toBeNull();
    expect(parseBrief('  ##   Read first  \r\n- x\r\n').readFirst!.lines).toEqual(['- x', '']);
  });

  it('notes a "## Browser checks" heading outside fences only', () => {
    expect(parseBrief('## Read first\n## Browser checks\n').hasBrowserChecks).toBe(true);
    expect(parseBrief('## Read first\n```\n## Browser checks\n```\n').hasBrowserChecks).toBe(false);
  });
});
