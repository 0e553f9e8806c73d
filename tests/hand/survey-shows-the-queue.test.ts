/**
 * `hand survey` reads the durable work, not only the workers (issue 22): beside three backlog
 * items it said "Nothing is queued.". Now a ready item is next (with the dispatch command), an
 * item held for the person needs them, a blocked one names its blocker, and away mode is said.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { formatSurvey } from '../../cli/commands/picture-text.ts';

const world = useDaemonWorld();

describe('survey shows the queue', () => {
  it('lists ready, held-for-you and blocked items, and the away state', async () => {
    const w = await world('survey-queue');
    await w.call('annex', { repo: w.repo, name: 'shop', yolo: true });
    await w.call('backlog.add', { id: 'login', project: 'shop', title: 'Fix the login' });
    await w.call('backlog.add', { id: 'spec', project: 'shop', title: 'Write the spec' });
    await w.call('backlog.add', { id: 'api', project: 'shop', title: 'Build the API' });
    await w.call('backlog.hold', { id: 'spec', reason: 'needs your call on scope', kind: 'person' });
    await w.call('backlog.block', { id: 'api', by: 'spec' });
    const s = await w.call('survey');
    expect(s.next.map((i: any) => `${i.kind}:${i.id}`)).toEqual(expect.arrayContaining(['ready:login', 'blocked-item:api']));
    expect(s.needsYou.map((i: any) => `${i.kind}:${i.id}`)).toContain('held-for-you:spec');
    expect(s.next.find((i: any) => i.id === 'login').text).toContain('hand dispatch --item login');
    expect(s.away).toEqual({ active: false, since: null, note: null });
    const text = formatSurvey(s);
    expect(text).not.toContain('Nothing is queued.');
    expect(text).toContain('item spec held (person): needs your call on scope');

    await w.call('afk.on', { note: 'lunch' });
    const away = await w.call('survey');
    expect(away.away.active).toBe(true);
    expect(formatSurvey(away)).toMatch(/You are away since .*\(lunch\)/);
  });

  it("says the Claude Code version against the reader's corpus and what the daemon's PATH is missing, with the fix", async () => {
    // The daemon starts the workers, so its PATH is the one that must hold git and tmux.
    const probe = await world('survey-setup-ok');
    const ok = await probe.call('survey');
    expect(ok.setup).toMatchObject({ claude: { standing: 'in-corpus', version: '2.1.332' }, missing: [] });
    expect(formatSurvey(ok)).toMatch(/^CLAUDE CODE: Claude Code 2\.1\.332: its screens are in the reader's corpus/m);
    const bin = join(probe.root, 'git-only');
    mkdirSync(bin);
    symlinkSync('/usr/bin/git', join(bin, 'git'));
    const w = await world('survey-setup-missing', { daemonEnv: { PATH: bin } });
    const s = await w.call('survey');
    expect(s.setup.missing).toEqual([expect.objectContaining({ name: 'tmux', fix: expect.stringContaining('apt-get install -y tmux') })]);
    expect(formatSurvey(s)).toMatch(/^MISSING tmux: tmux not found.*; fix: sudo apt-get install -y tmux/m);
  });
});
