/**
 * The permission posture through the real `hand` binary: set at annex (default off), changed
 * with `hand project set`, shown by dispatch and status, and the refusal of `off` where
 * kingshand's sandbox cannot be built, before anything is created.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('permission posture on the command line', () => {
  it('annex defaults to off; project set changes it; dispatch and status say which posture a worker runs under', async () => {
    const w = await makeWorld('posture-cli');
    const a = await w.hand(['annex', w.repo, '--yolo', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.json.permissions).toBe('off');

    const bad = await w.hand(['project', 'set', 'repo', '--permissions', 'sometimes']);
    expect(bad.code).toBe(2);
    const unknown = await w.hand(['project', 'set', 'nope', '--permissions', 'ask', '--json']);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error.code).toBe('unknown-project');

    const set = await w.hand(['project', 'set', 'repo', '--permissions', 'edits']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('permissions off → edits');
    // Re-annexing without --permissions keeps the posture the person chose.
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).json.permissions).toBe('edits');

    const d = await w.hand(['dispatch', 'p1', '--repo', w.repo, '--brief', w.brief('p1', 'Say hi.'), '--agent', 'mock']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain('permissions edits');
    const settings = JSON.parse(readFileSync(join(w.repo, '.claude', 'worktrees', 'p1', '.claude', 'settings.local.json'), 'utf8'));
    expect(settings.permissions.defaultMode).toBe('acceptEdits');
    const s = await w.hand(['status', 'p1', '--json']);
    expect(s.json[0].permissions).toBe('edits');
  });

  it("the project's default agent on the command line: annex and project set --agent record it, hand projects shows it, dispatch without --agent says it chose it", async () => {
    const w = await makeWorld('default-agent-cli');
    const a = await w.hand(['annex', w.repo, '--agent', 'mock']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('agent mock');
    const bad = await w.hand(['project', 'set', 'repo', '--agent', 'cursor']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/claude.*codex.*mock.*gemini/);
    const set = await w.hand(['project', 'set', 'repo', '--agent', 'gemini']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('default agent mock → gemini');
    expect((await w.hand(['projects'])).stdout).toMatch(/agent[\s\S]*gemini/);
    // Not yolo: dispatch answers at the brief gate, so no agent starts.
    const d = await w.hand(['dispatch', 'g1', '--repo', w.repo, '--brief', w.brief('g1', 'Say hi.')]);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain("then: gemini (the project's default agent)");
  });

  it("off without kingshand's sandbox is refused before anything is made, for every agent, naming what stops it and the ways out", async () => {
    // HAND_SANDBOX=off stands for a machine where the sandbox cannot be built (no bubblewrap, no user namespaces).
    const w = await makeWorld('posture-no-sandbox', { env: { HAND_SANDBOX: 'off' } });
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    for (const agent of ['mock', 'claude', 'codex', 'gemini']) {
      const id = `s-${agent}`;
      const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hi.'), '--agent', agent, '--json'], { env: { IS_SANDBOX: '1' } });
      expect(d.code, `${agent}: ${d.stdout}${d.stderr}`).toBe(1);
      expect(d.json.error.code, agent).toBe('sandbox-unavailable');
      expect(d.json.error.message).toMatch(/HAND_SANDBOX=off.*hand project set repo --permissions edits/s);
      expect(existsSync(join(w.repo, '.claude', 'worktrees', id)), `${agent}: no worktree`).toBe(false);
      expect(existsSync(join(w.home, 'workers', id)), `${agent}: no brief directory`).toBe(false);
    }
    // edits: a person reads each command, so no sandbox is needed.
    expect((await w.hand(['project', 'set', 'repo', '--permissions', 'edits', '--json'])).code).toBe(0);
    const e = await w.hand(['dispatch', 'e1', '--repo', w.repo, '--brief', w.brief('e1', 'Say hi.'), '--agent', 'mock', '--json']);
    expect(e.code, e.stdout + e.stderr).toBe(0);
  });

  it.skipIf(typeof process.getuid !== 'function' || process.getuid() !== 0)("off as root runs in kingshand's sandbox as an ordinary user: Claude Code needs no IS_SANDBOX", async () => {
    const w = await makeWorld('posture-root');
    expect((await w.hand(['annex', w.repo, '--json'])).code).toBe(0);
    // The brief gate holds it before any agent starts: what is checked is that dispatch accepts it.
    const d = await w.hand(['dispatch', 'r1', '--repo', w.repo, '--brief', w.brief('r1', 'Say hi.'), '--agent', 'claude', '--json'], { env: { IS_SANDBOX: '' } });
    expect(d.code, d.stdout + d.stderr).toBe(0);
    expect(d.json.permissions).toBe('off');
  });
});
