import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withBrief } from '../../mock-agent/brief-reader.ts';
import { builtInSteps } from '../../mock-agent/steps.ts';
import { makeTempDir } from '../helpers/temp.ts';

const dirs: Array<{ cleanup(): void }> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

const timings = { tickMs: 10, replyMs: 10, slowMs: 100 } as Parameters<typeof builtInSteps>[1];

describe('the mock agent reads the brief its first prompt names', () => {
  it('trigger words in the brief drive the turn, and a bare MODE:report writes to the named report path', () => {
    const d = makeTempDir('mock-brief');
    dirs.push(d);
    const brief = join(d.path, 'brief.md');
    const report = join(d.path, 'report.md');
    writeFileSync(brief, '# Brief\n\nMODE:report\n');
    const prompt = `Read the brief at ${brief} in full before you start. When you are done, write your report to ${report} and end your turn.`;
    const acted = withBrief(prompt);
    expect(acted).toContain(`MODE:report ${report}`);
    const steps = builtInSteps(acted, timings);
    expect(steps.some((s) => s.kind === 'write' && s.path === report)).toBe(true);
  });

  it('a prompt that names no brief, or an unreadable one, is taken as it is', () => {
    expect(withBrief('MODE:ask pick')).toBe('MODE:ask pick');
    const prompt = 'Read the brief at /nonexistent/brief.md in full.';
    expect(withBrief(prompt)).toBe(prompt);
  });
});
