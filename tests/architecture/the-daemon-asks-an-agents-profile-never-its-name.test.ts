/**
 * A new agent CLI is one profile file and one registry line (io/agent/profiles/): nothing in the
 * daemon, the actors or the machines branches on an agent's name, so nothing there needs an edit
 * when Codex or Gemini CLI arrives.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../contract/vocabulary.ts';
import { agentProfile, agentProfiles } from '../../io/agent/profiles/index.ts';
import { launchSpec } from '../../io/agent/launch.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the daemon asks an agent profile, never an agent name', () => {
  it('no file under daemon/, actors/, machines/ or cli/ compares an agent with a name', () => {
    const named = /\bagent\s*[!=]==\s*'[a-z]+'/;
    const offenders = ['daemon', 'actors', 'machines', 'cli']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((file) => named.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(ROOT.length + 1));
    expect(offenders, 'branch on the agent profile (io/agent/profiles/) instead').toEqual([]);
  });

  it('every agent of the wire has a profile, and the profile names itself', () => {
    expect(agentProfiles().map((p) => p.name)).toEqual([...AGENTS]);
  });

  it("a posture reaches the launch through the profile: Claude Code's off is its bypass flag, the mock takes none", () => {
    const claude = launchSpec('claude', { callerEnv: {}, daemonEnv: { PATH: '' }, posture: 'off' }).argv;
    expect(claude.slice(-2)).toEqual(['--permission-mode', 'bypassPermissions']);
    expect(launchSpec('claude', { callerEnv: {}, daemonEnv: { PATH: '' }, posture: 'ask' }).argv).toHaveLength(1);
    expect(launchSpec('mock', { callerEnv: {}, posture: 'off' }).argv).toEqual([process.execPath, expect.stringMatching(/mock-agent\.js$/)]);
  });

  it('an unknown agent is refused with the agents that exist', () => {
    expect(() => agentProfile('cursor')).toThrow(/unknown agent "cursor"\. Use --agent claude or --agent codex or --agent mock/);
  });
});
