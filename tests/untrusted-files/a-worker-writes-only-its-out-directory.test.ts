/**
 * Rule: a worker reads its brief directory and writes only its report directory (issue 37 item 2,
 * io/brief/worker-layout.ts). `<state>/workers/<id>/` holds only what the daemon wrote (brief.md,
 * read-first/, the progress note); the worker's report is `<state>/workers/<id>/out/report.md`;
 * the daemon keeps the brief as dispatched in `<state>/briefs/<id>.md`. Every agent is told so:
 * Claude Code's sandbox writes out/ (the brief directory is read), and its file tools may not edit
 * the daemon's files; Codex's one extra writable root is out/; Gemini's policy denies writes in
 * the brief directory outside out/. Dispatched for real (in-process daemon, tmux, mock agent).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import { denyPolicyText } from '../../io/agent/gemini/deny-policy.ts';

const makeWorld = useDaemonWorld();

describe('a worker writes only its out directory', () => {
  it('dispatch: the report in out/, the brief copy in briefs/, the sandbox and deny rules to match', async () => {
    const w = await makeWorld('out-layout', { annexYolo: true });
    const d = await w.dispatch('w1', 'Say hi.');
    const briefDir = join(w.home, 'workers', 'w1');
    const out = join(briefDir, 'out');
    expect(d.briefPath).toBe(join(briefDir, 'brief.md'));
    expect(d.reportPath).toBe(join(out, 'report.md'));
    expect(statSync(out).isDirectory()).toBe(true);
    expect(statSync(out).mode & 0o777).toBe(0o700);
    const copy = join(w.home, 'briefs', 'w1.md');
    expect(readFileSync(copy, 'utf8'), "the daemon's copy is the brief as dispatched").toBe(readFileSync(d.briefPath, 'utf8'));
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    await w.call('wait', { id: 'w1', until: 'settled', timeoutMs: 30_000 });

    // The mock is seeded as Claude Code is. Under posture off the worker runs in kingshand's own
    // sandbox, which shows the brief directory read-only and out/ writable (the stranger suite,
    // tests/isolation, tries both from inside); Claude Code's own sandbox block is not written.
    const settings = JSON.parse(readFileSync(join(d.worktree, '.claude', 'settings.local.json'), 'utf8'));
    expect(settings.sandbox, "kingshand's sandbox instead of Claude Code's").toBeUndefined();
    expect(settings.permissions.deny).toEqual(expect.arrayContaining([`Edit(/${briefDir}/brief.md)`, `Edit(/${briefDir}/progress-note.md)`, `Edit(/${briefDir}/read-first/**)`]));
    expect(settings.permissions.deny.some((r: string) => r.includes('/out'))).toBe(false);
  });

  it("Codex's writable root is out/, never the brief directory", () => {
    const where = { worktree: '/r/.claude/worktrees/w1', briefDir: '/s/workers/w1', reportDir: '/s/workers/w1/out' };
    const argv = agentProfile('codex').launchArgv('/bin/codex', 'edits', where);
    expect(argv).toContain('/s/workers/w1/out');
    expect(argv).not.toContain('/s/workers/w1');
    expect(agentProfile('codex').farLaunchArgv('edits', where)).toContain('/s/workers/w1/out');
  });

  it("Gemini's policy denies its file tools every write in the brief directory but out/", () => {
    const text = denyPolicyText({ stateDir: '/s', briefDir: '/s/workers/w1', reportDir: '/s/workers/w1/out' });
    const patterns = [...text.matchAll(/argsPattern = ("(?:[^"\\]|\\.)*")/g)].map((m) => new RegExp(JSON.parse(m[1]!) as string));
    const denied = (path: string) => patterns.some((re) => re.test(JSON.stringify({ file_path: path, content: 'x' })));
    expect(denied('/s/workers/w1/brief.md')).toBe(true);
    expect(denied('/s/workers/w1/progress-note.md')).toBe(true);
    expect(denied('/s/workers/w1/read-first/spec.md')).toBe(true);
    expect(denied('/s/workers/w1/out/report.md')).toBe(false);
  });
});
