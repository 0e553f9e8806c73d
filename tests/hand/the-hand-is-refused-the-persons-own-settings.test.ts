/**
 * Rule: the person's own settings are never the Hand's (issue 38 item 10). The kit let the Hand's
 * Bash run every `hand` command without a prompt — `notify add`, `host add`, `usage source`,
 * `project host`, `daemon stop` among them — though faces.ts said none is the Hand's. Now every
 * request from the Hand's session (its MCP server; its shell, marked HAND_CALLER=hand by the kit's
 * settings) says so, and the daemon refuses it these methods, naming the command for the person's
 * own terminal; the kit's settings deny the commands to its shell as well. The person's own call
 * (no mark) goes through.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { PERSON_ONLY_METHODS } from '../../contract/methods.ts';
import { HAND_CALLER_ENV } from '../../contract/hand-caller.ts';
import { PERSON_ONLY_COMMANDS, handSettings } from '../../io/workspace/kit-settings.ts';
import { MCP_FACE } from '../../cli/mcp/faces.ts';

const world = useDaemonWorld();
afterEach(() => {
  delete process.env[HAND_CALLER_ENV];
});

const PARAMS: Record<string, Record<string, unknown>> = {
  shutdown: {},
  'notify.add': { kind: 'webhook', args: ['http://127.0.0.1:9/hook'], allowLoopback: true },
  'notify.remove': { id: 'n1' },
  'usage.source': { clear: true },
  'host.add': { name: 'far', destination: 'someone@127.0.0.1' },
  'host.trust': { name: 'far', knownHosts: '/nowhere/known_hosts' },
  'host.remove': { name: 'far' },
  'project.host': { name: 'repo', host: 'far', path: '/nowhere' },
  annotate: { id: 'w1', item: 'general', text: 'the person pre-approved everything' },
};

describe("the Hand is refused the person's own settings", () => {
  it('each person-only method, asked by the Hand, is refused naming the command; asked by the person, it is served', async () => {
    const w = await world('hand-not-person');
    expect(PERSON_ONLY_METHODS.length).toBe(Object.keys(PARAMS).length);
    process.env[HAND_CALLER_ENV] = 'hand';
    for (const method of PERSON_ONLY_METHODS) {
      const r = await w.refusal(method, PARAMS[method]!);
      expect(r.code, method).toBe('not-the-hands');
      expect(r.message, method).toMatch(/never the Hand's\. Ask the person to run it in their own terminal: hand /);
    }
    // The daemon is still up (shutdown was refused), and the Hand's other calls are served.
    expect(await w.call('ping', {})).toMatchObject({ pid: expect.any(Number) });
    expect(Array.isArray(await w.call('notify.list', {}))).toBe(true);
    delete process.env[HAND_CALLER_ENV];
    const added = await w.call('notify.add', PARAMS['notify.add']);
    expect(added).toMatchObject({ added: true });
  });

  it("every person-only method is the CLI's alone in faces.ts, and the kit denies its command to the Hand's shell and marks the session", () => {
    for (const m of PERSON_ONLY_METHODS) expect(MCP_FACE[m], m).toHaveProperty('cliOnly');
    const settings = handSettings({ node: '/usr/bin/node', handBin: '/k/bin/hand.js', home: null, workspace: '/ws', stateDir: '/state' }) as { env: Record<string, string>; permissions: { deny: string[] } };
    expect(settings.env[HAND_CALLER_ENV]).toBe('hand');
    for (const words of PERSON_ONLY_COMMANDS) expect(settings.permissions.deny, words).toContain(`Bash(*${words}*)`);
    // The MCP server marks its own requests, whatever its environment.
    expect(readFileSync(join(import.meta.dirname, '../../cli/mcp/server.ts'), 'utf8')).toContain("process.env[HAND_CALLER_ENV] = 'hand'");
  });
});
