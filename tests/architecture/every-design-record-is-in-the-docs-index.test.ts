/**
 * Rule (issue 44): docs/README.md lists every design record, and lists nothing that is gone. It
 * listed 17 of 36: a record nobody can find is a decision the next engineer makes again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = resolve(import.meta.dirname, '../../docs');

describe('every design record is in the docs index', () => {
  it('each docs/*.md but the index itself is linked from docs/README.md, and every link there names a file', () => {
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
    const linked = new Set([...index.matchAll(/\]\(([^)#]+\.md)\)/g)].map((m) => m[1]!));
    const records = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(records.filter((f) => !linked.has(f)), 'records missing from docs/README.md').toEqual([]);
    expect([...linked].filter((f) => !records.includes(f)), 'links in docs/README.md to no file').toEqual([]);
  });
});
