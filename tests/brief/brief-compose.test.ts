import { describe, expect, it } from 'vitest';
import { composeBrief, LEAD_IN, parseBrief, type Attachment } from '../../io/brief/index.ts';

const dir = '/state/workers/T-1';
const done: Attachment = { kind: 'done', source: '/data/done-app.md', leaf: 'done-app.md' };
const rules: Attachment = { kind: 'rules', source: '/data/rules-app.md', leaf: 'rules-app.md' };
const spec: Attachment = { kind: 'read', source: '/repo/docs/spec.md', leaf: 'spec.md' };
const BRIEF = '# T-1 - x\n\n## Read first\n- the spec settles the API\n\n## Scope\nrepo\n';

describe('read-first copies are listed in the brief', () => {
  it('appends a lead-in and one bullet per copy at the end of the Read first section, before the next heading', () => {
    const out = composeBrief(BRIEF, { briefDir: dir, project: 'app', attachments: [spec, done, rules], detachedStanding: [] });
    const shape = parseBrief(out);
    const section = shape.readFirst!.lines.filter((l) => l.trim());
    expect(section[0]).toBe('- the spec settles the API');
    expect(section[1]).toBe(LEAD_IN);
    expect(section.slice(2)).toEqual([
      '- `/state/workers/T-1/read-first/spec.md` - copy of `/repo/docs/spec.md`.',
      expect.stringContaining('`/state/workers/T-1/read-first/done-app.md` - standing definition of done for app'),
      expect.stringContaining('`/state/workers/T-1/read-first/rules-app.md` - standing rules for app'),
    ]);
    expect(out).toContain('\n\n## Scope\nrepo\n');
  });

  it('is idempotent: composing a composed brief changes nothing', () => {
    const once = composeBrief(BRIEF, { briefDir: dir, project: 'app', attachments: [done, rules], detachedStanding: [] });
    expect(composeBrief(once, { briefDir: dir, project: 'app', attachments: [done, rules], detachedStanding: [] })).toBe(once);
  });

  it('adds a new bullet under the existing lead-in rather than a second lead-in', () => {
    const once = composeBrief(BRIEF, { briefDir: dir, project: 'app', attachments: [done], detachedStanding: [] });
    const twice = composeBrief(once, { briefDir: dir, project: 'app', attachments: [done, rules], detachedStanding: [] });
    expect(twice.split(LEAD_IN).length).toBe(2);
    const lines = twice.split('\n');
    expect(lines[lines.indexOf(LEAD_IN) + 2]).toContain('rules-app.md');
  });

  it('removes the bullet of a standing file that has since been deleted, only in its exact wording', () => {
    const once = composeBrief(BRIEF, { briefDir: dir, project: 'app', attachments: [done, rules], detachedStanding: [] });
    const edited = once + '- my own note about rules-app.md\n';
    const after = composeBrief(edited, { briefDir: dir, project: 'app', attachments: [done], detachedStanding: ['rules'] });
    expect(after).not.toContain('standing rules for app');
    expect(after).toContain('- my own note about rules-app.md');
  });

  it('keeps CRLF line endings', () => {
    const out = composeBrief(BRIEF.replace(/\n/g, '\r\n'), { briefDir: dir, project: 'app', attachments: [done], detachedStanding: [] });
    expect(out.split('\r\n').length).toBe(out.split('\n').length);
  });
});
