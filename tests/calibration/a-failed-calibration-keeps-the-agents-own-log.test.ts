/**
 * A failed calibration keeps the end of the agent's own log beside its screens
 * (daemon/calibration/agent-log.ts): a situation not reached shows on screen only as nothing
 * happening, and the log says what the agent was doing meanwhile. The log is the agent's file in
 * a throwaway HOME, read as a stranger's: a link is not followed, only the newest log's end is kept.
 * It is looked for where the agent wrote it: in kingshand's sandbox OpenCode's data home is the
 * worker's own, not under HOME (a failed sandboxed calibration found no log under HOME).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_LOG_TAIL, agentLogTail } from '../../daemon/calibration/agent-log.ts';
import { AGENT_LOG_FILE, writeEvidence } from '../../daemon/calibration/evidence.ts';
import type { AgentCalibration } from '../../contract/methods/calibration.ts';
import { opencodeCalibrationKit } from '../../io/agent/opencode/calibration-kit.ts';
import { opencodeSandboxHome } from '../../io/agent/opencode/sandbox-home.ts';
import { agentsDirOf, sandboxEnv } from '../../io/sandbox/worker-sandbox.ts';
import { makeTempDir } from '../helpers/temp.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function tempDir(label: string): string {
  const t = makeTempDir(label);
  cleanup = t.cleanup;
  return t.path;
}

describe("a failed calibration keeps the agent's own log", () => {
  it("keeps the newest log's end, names it, and says when it was cut", () => {
    const dir = join(tempDir('agent-log'), 'log');
    expect(agentLogTail(dir)).toBeNull();
    mkdirSync(dir);
    expect(agentLogTail(dir)).toBeNull();
    writeFileSync(join(dir, '2026-12-07T10:00:00.log'), 'an older run\n');
    writeFileSync(join(dir, '2026-12-07T11:00:00.log'), 'level=INFO message="creating instance"\nlevel=WARN message="still booting"\n');
    writeFileSync(join(dir, 'notes.txt'), 'not a log\n');
    expect(agentLogTail(dir)).toBe('2026-12-07T11:00:00.log:\nlevel=INFO message="creating instance"\nlevel=WARN message="still booting"\n');

    const long = `${'early line\n'.repeat(10_000)}the last line`;
    writeFileSync(join(dir, '2026-12-07T12:00:00.log'), long);
    const tail = agentLogTail(dir)!;
    expect(tail.startsWith('2026-12-07T12:00:00.log (its end):\n')).toBe(true);
    expect(tail.endsWith('the last line\n')).toBe(true);
    expect(tail.length).toBeLessThanOrEqual(AGENT_LOG_TAIL + 100);
  });

  it('never follows a link the agent left: a linked log is not a log, a linked directory is refused', () => {
    const root = tempDir('agent-log-link');
    const secret = join(root, 'secret.txt');
    writeFileSync(secret, 'the person\'s secret\n');
    const dir = join(root, 'log');
    mkdirSync(dir);
    symlinkSync(secret, join(dir, 'zz-newest.log'));
    expect(agentLogTail(dir)).toBeNull();
    writeFileSync(join(dir, 'a.log'), 'its own line\n');
    expect(agentLogTail(dir)).toBe('a.log:\nits own line\n');
    // A log directory that is itself a link to elsewhere: what is there is not read.
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'x.log'), "the person's secret\n");
    const linkedDir = join(root, 'linked');
    symlinkSync(elsewhere, linkedDir);
    expect(agentLogTail(linkedDir)).toMatch(/^x\.log: not read \(/);
    expect(JSON.stringify([agentLogTail(dir), agentLogTail(linkedDir)])).not.toContain("the person's secret");
  });

  it("is looked for where the agent writes it: OpenCode's data home, the worker's own in the sandbox", () => {
    const root = tempDir('agent-log-place');
    const home = join(root, 'home');
    const person = { HOME: home, PATH: '/usr/bin:/bin' };
    // Without the sandbox: under HOME, or where the person's XDG_DATA_HOME points.
    expect(opencodeCalibrationKit.agentLogDir!(person)).toBe(join(home, '.local', 'share', 'opencode', 'log'));
    expect(opencodeCalibrationKit.agentLogDir!({ ...person, XDG_DATA_HOME: join(root, 'data') })).toBe(join(root, 'data', 'opencode', 'log'));
    expect(opencodeCalibrationKit.agentLogDir!({ PATH: '/usr/bin' })).toBeNull();
    // In the sandbox: the launch environment the worker gets points OpenCode's data home at its own directory.
    const stateDir = join(root, 'state');
    const launched = sandboxEnv({
      id: 'cal-1', agent: 'opencode', worktree: join(root, 'wt'), briefDir: join(root, 'brief'), reportDir: join(root, 'brief'), stateDir,
      repo: join(root, 'repo'), gitCommonDir: null, worktreeGitDir: null, pinnedRefs: [], agentHome: opencodeSandboxHome, needs: [],
    }, person);
    const dir = opencodeCalibrationKit.agentLogDir!(launched)!;
    expect(dir.startsWith(`${agentsDirOf(stateDir, 'cal-1')}/`)).toBe(true);
    expect(dir.startsWith(`${home}/`)).toBe(false);
  });

  it('the evidence folder holds it as agent-log.txt, and its README says so', () => {
    const root = tempDir('agent-log-evidence');
    const result: AgentCalibration = {
      agent: 'opencode', label: 'OpenCode', version: '1.18.33', binary: '/bin/opencode', verdict: 'fail', situations: [], evidence: null,
      backend: 'tmux', sandboxed: false, sandboxNote: null, at: '2026-12-07T19:00:00.000Z', ms: 1,
    };
    const dir = writeEvidence(root, result, [], null, 'opencode.log:\nlevel=INFO message="creating instance"\n');
    expect(readFileSync(join(dir, AGENT_LOG_FILE), 'utf8')).toContain('creating instance');
    expect(readFileSync(join(dir, 'README.txt'), 'utf8')).toContain(`${AGENT_LOG_FILE} holds the end of the agent's own log of the run.`);
    const without = writeEvidence(join(root, 'other'), result, [], null);
    expect(readFileSync(join(without, 'README.txt'), 'utf8')).not.toContain(AGENT_LOG_FILE);
  });
});
