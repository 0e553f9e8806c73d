/**
 * OpenCode's second witness is a plugin of kingshand's (io/agent/opencode/witness-plugin.mjs):
 * each OpenCode event that says something about the worker's state is said through `hand hook`
 * with the payload words Claude Code's hooks use, in order, one at a time, so the daemon's witness
 * reads it with the words it has (actors/witness.ts): a turn begins (working), a permission or a
 * question is drawn (needs input), the turn ends (idle) or fails (failed, and no idle after it).
 * A sub-agent's session is its parent's work: never said. An interrupt is no failure. The plugin
 * is driven here with OpenCode's event shapes (1.18.33, as its own plugin API delivers them) and a
 * stand-in `hand` that records what it was given; the real binary loads it in the e2e test.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noteOf } from '../../../contract/hook-note.ts';
import { wordOf } from '../../../actors/witness.ts';
import { WITNESS_PLUGIN, workerConfig } from '../../../io/agent/opencode/launch-env.ts';
import { makeTempDir, waitFor } from '../../helpers/temp.ts';

type Hooks = { event?: (input: { event: { type: string; properties?: Record<string, unknown> } }) => Promise<void> };
type PluginFn = (input: unknown, options?: Record<string, unknown>) => Promise<Hooks>;

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

/** A `hand` that appends `<event> <stdin>` to a log, so the test sees what each call was given. */
function recordingHand(dir: string): { argv: string[]; log: string } {
  const log = join(dir, 'calls.log');
  const script = join(dir, 'hand.mjs');
  writeFileSync(log, '');
  writeFileSync(script, `import { appendFileSync } from 'node:fs';
let body = '';
process.stdin.on('data', (d) => (body += d));
process.stdin.on('end', () => appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + '\\t' + body + '\\n'));
`);
  return { argv: [process.execPath, script, '--home', '/nowhere'], log };
}

const calls = (log: string) => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => {
  const [args, body] = l.split('\t');
  return { args: args!, payload: JSON.parse(body!) as Record<string, unknown> };
});

async function plugin(): Promise<PluginFn> {
  const mod = (await import(WITNESS_PLUGIN)) as { KingshandWitness: PluginFn };
  return mod.KingshandWitness;
}

describe("OpenCode's witness plugin says its events as the hook words the daemon reads", () => {
  it('a turn with a permission, a sub-agent, a question, an interrupt and a failure: each said once, in order, with its word', async () => {
    tmp = makeTempDir('opencode-witness');
    const hand = recordingHand(tmp.path);
    const hooks = await (await plugin())({ directory: tmp.path }, { hand: hand.argv });
    const ev = (type: string, properties: Record<string, unknown>) => hooks.event!({ event: { type, properties } });
    const main = 'ses_main';
    const child = 'ses_child';
    await ev('session.created', { sessionID: main, info: { id: main } });
    await ev('session.status', { sessionID: main, status: { type: 'busy' } });
    await ev('session.status', { sessionID: main, status: { type: 'busy' } }); // OpenCode repeats it within a turn
    await ev('permission.asked', { id: 'per_1', sessionID: main, permission: 'bash', patterns: ['touch x'] });
    await ev('permission.replied', { sessionID: main, requestID: 'per_1', reply: 'once' });
    await ev('session.created', { sessionID: child, info: { id: child, parentID: main } });
    await ev('session.status', { sessionID: child, status: { type: 'busy' } });
    await ev('session.idle', { sessionID: child });
    await ev('question.asked', { sessionID: main, id: 'que_1' });
    await ev('session.error', { sessionID: main, error: { name: 'MessageAbortedError', data: { message: 'aborted' } } });
    await ev('session.status', { sessionID: main, status: { type: 'idle' } });
    await ev('session.idle', { sessionID: main });
    await ev('session.status', { sessionID: main, status: { type: 'busy' } });
    await ev('session.error', { sessionID: main, error: { name: 'APIError', data: { message: 'fake: this request is refused' } } });
    await ev('session.idle', { sessionID: main });

    const want = ['UserPromptSubmit', 'Notification', 'Notification', 'Stop', 'UserPromptSubmit', 'StopFailure'];
    const seen = await waitFor(() => (calls(hand.log).length >= want.length ? calls(hand.log) : false), { what: 'the plugin to have run hand hook six times', timeoutMs: 20_000, intervalMs: 50 });
    // Nothing more arrives after the last (no Stop after the failure, nothing for the sub-agent).
    await new Promise((r) => setTimeout(r, 500));
    expect(calls(hand.log)).toHaveLength(want.length);
    expect(seen.map((c) => c.args)).toEqual(want.map((e) => `--home /nowhere hook ${e}`));
    expect(seen.map((c) => c.payload.hook_event_name)).toEqual(want);
    // The daemon's own reading of each note: the words of the witness.
    const words = seen.map((c) => wordOf(noteOf('w1', String(c.payload.hook_event_name), c.payload, 0)));
    expect(words).toEqual(['working', 'needs-input', 'needs-input', 'idle', 'working', 'failed']);
    expect(seen[1]!.payload).toMatchObject({ notification_type: 'permission_prompt', message: 'OpenCode needs your permission to use bash' });
    expect(seen[2]!.payload).toMatchObject({ notification_type: 'elicitation_dialog' });
    expect(seen[5]!.payload).toMatchObject({ error: 'APIError', error_details: 'fake: this request is refused' });
    // No prompt text and no tool input leaves in a payload.
    expect(JSON.stringify(seen)).not.toContain('touch x');
  });

  it('without a hand command in its options it says nothing (a config that names the plugin alone)', async () => {
    const hooks = await (await plugin())({}, {});
    expect(hooks.event).toBeUndefined();
  });

  it("the worker's config names this file and the hand command with the worker's state directory, only when a witness is wanted", () => {
    const config = workerConfig('/state/home');
    expect(config).toMatchObject({ share: 'disabled', autoupdate: false });
    const [[url, options]] = config.plugin as [[string, { hand: string[] }]];
    expect(url).toBe(`file://${WITNESS_PLUGIN}`);
    expect(options.hand.slice(-2)).toEqual(['--home', '/state/home']);
    expect(options.hand[1]).toMatch(/bin\/hand\.js$/);
    expect(workerConfig()).not.toHaveProperty('plugin');
  });
});
