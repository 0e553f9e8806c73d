/**
 * Rule: a new agent profile does not pass without the stranger suite (issue 37). Every agent the
 * registry can dispatch has a test file here that runs the probe from inside a real worker of that
 * agent and checks it with expectAStranger (itself, or through realAgentStrangerSuite); a profile
 * added without one fails this test, naming the file it lacks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentProfiles } from '../../io/agent/profiles/index.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** Each agent's stranger suite, by the agent's name. */
export const STRANGER_SUITES: Record<string, string> = {
  mock: 'a-mock-worker-is-a-stranger.test.ts',
  claude: 'a-claude-code-worker-is-a-stranger.test.ts',
  codex: 'a-codex-worker-is-a-stranger.test.ts',
  gemini: 'a-gemini-worker-is-a-stranger.test.ts',
  opencode: 'an-opencode-worker-is-a-stranger.test.ts',
  qwen: 'a-qwen-code-worker-is-a-stranger.test.ts',
};

describe('every agent has a stranger suite', () => {
  it.each(agentProfiles().map((p) => [p.name, p.label]))('%s (%s) runs the probe from inside its own worker and is checked as a stranger', (name) => {
    const file = STRANGER_SUITES[name];
    expect(file, `agent ${name} has no stranger suite: add tests/isolation/a-${name}-worker-is-a-stranger.test.ts (an- before a vowel) and name it in STRANGER_SUITES`).toBeDefined();
    const path = join(HERE, file!);
    expect(existsSync(path), `${path} exists`).toBe(true);
    const text = readFileSync(path, 'utf8');
    // realAgentStrangerSuite (real-agent-stranger-suite.ts) runs the probe and checks the worker for the agent it is given.
    const suite = text.includes('realAgentStrangerSuite(');
    expect(suite || text.includes('writeProbe('), `${file} runs the probe`).toBe(true);
    expect(suite || text.includes('expectAStranger('), `${file} checks the worker as a stranger`).toBe(true);
    // Its agent's world, made directly (makeXWorld) or once for the file (useXWorld).
    const world = name === 'claude' ? 'E2e' : name[0]!.toUpperCase() + name.slice(1);
    expect(text, `${file} dispatches a worker of agent ${name}`).toMatch(new RegExp(`'--agent', '${name}'|(make|use)${world}World\\(`));
  });
});
