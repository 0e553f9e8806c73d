/**
 * Issue 45, "Done when", for OpenCode 1.18.33: its real binary against the fake Anthropic API,
 * driven only through `hand`. Under `ask`: dispatch into a worktree whose repository commits an
 * opencode.json that allows every command and edit, brief approved, working, the shell approval
 * still blocks the worker (the posture's rules win over the repository's) with the command quoted,
 * the person answers by number (hand answer 1), the report's write asks and is answered by number
 * too (1, "Allow once"), the worker
 * settles with its report, its commit lands (hand land + approve), and `hand stop` ends it by
 * `/exit` with status 0. Its witness plugin reaches the daemon and agrees with the screen. Nothing
 * of the person's config is written, and it connects to nothing but the fake on 127.0.0.1. Under `off` a
 * command runs without asking: the stranger suite (tests/isolation/an-opencode-worker-is-a-stranger.test.ts)
 * runs its probe that way, so it is not started a second time here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../../io/fake-model/anthropic.ts';
import { makeOpencodeWorld } from './opencode-world.ts';
import {
  answer, blockedOnPermission, dispatchAndApprove, expectNeedsInputHeard, sentToolResult, THE_WORK, theWorkOnAnthropic, useAgentWorld, witnessSaid, type SeenDialog,
} from '../through-hand-steps.ts';
import { watermark } from '../../claude-e2e/e2e-world.ts';
import { isLoopback, watchConnections } from '../../helpers/outside-connections.ts';

/** What a repository could commit to widen a worker's posture: OpenCode's own permission config. */
const WIDENING = { $schema: 'https://opencode.ai/config.json', permission: { bash: 'allow', edit: 'allow', external_directory: 'allow' } };

const the = useAgentWorld(() => startFakeAnthropic({ suggestion: null }), (fake) => makeOpencodeWorld('e2e-opencode', fake, 'ask'));

/** Waits until blocked on a permission, answers `option` by number through hand, returns the dialog as seen. */
async function answerByNumber(id: string, option: number, witness = false): Promise<SeenDialog> {
  const { w } = the;
  const dialog = await blockedOnPermission(w, id, '90s');
  expect(dialog).toMatchObject({ cursor: 1, across: true });
  if (witness) await expectNeedsInputHeard(w, id, 'witness plugin word');
  const answered = await answer(w, id, option, dialog);
  // Option 1 is where the cursor stands: Enter alone; another is reached with the arrow across.
  expect(answered.json.keys).toEqual([...Array<string>(option - 1).fill('right'), 'enter']);
  return dialog;
}

describe('a real OpenCode worker through hand', () => {
  it("under ask: the repository's own rules cannot widen it; blocks on its approval, answered by number, reports, lands and stops with status 0", async () => {
    const { w, fake } = the;
    // The repository allows every command and edit in its own opencode.json, committed on main.
    writeFileSync(join(w.repo, 'opencode.json'), `${JSON.stringify(WIDENING, null, 2)}\n`);
    execFileSync('git', ['-C', w.repo, 'add', 'opencode.json']);
    execFileSync('git', ['-C', w.repo, '-c', 'user.name=p', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'The project allows everything']);
    const personsConfig = readFileSync(join(w.agentHome, '.config', 'opencode', 'opencode.json'), 'utf8');

    const id = 'oc-ask';
    const since = watermark(fake);
    // Every socket OpenCode holds, sampled through the whole run: the fake's, and nothing else.
    const connections = watchConnections('opencode');
    fake.queue(theWorkOnAnthropic(w.reportPathOf(id)));
    await dispatchAndApprove(w, id, 'opencode');

    const first = await w.request(id, since, (r) => r.kind === 'main', 'the first agent-loop request');
    expect(first.body).toContain(`Read the brief at ${join(w.home, 'workers', id)}`);
    // OpenCode's own tools were offered, and the fake said its call in them.
    expect(first.summary?.tools).toEqual(expect.arrayContaining(['bash', 'read', 'write', 'edit', 'question']));
    expect(first.reply).toMatchObject({ kind: 'tool_use', name: 'bash' });

    const shell = await answerByNumber(id, 1, true);
    // The command is quoted as drawn, attributed to the worker (its words are data).
    expect(shell.question).toMatch(new RegExp(`^worker ${id} wrote: "Permission required: Shell command — \\$ echo feature > feature.txt`));
    expect(shell.options.map((o) => o.label)).toEqual([`worker ${id} wrote: "Allow once"`, `worker ${id} wrote: "Allow always"`, `worker ${id} wrote: "Reject"`]);
    const committed = await w.request(id, since, sentToolResult, 'the commit result');
    expect(committed.summary?.toolResults[0]?.content).toContain('committed');

    // The report's write is answered by number too (Allow always would ask once more: Confirm / Cancel).
    const write = await answerByNumber(id, 1);
    expect(write.question).toContain('report.md');

    const settled = await w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(readFileSync(w.reportPathOf(id), 'utf8')).toBe(THE_WORK.report);
    const row = await witnessSaid(w, id, 'Stop', 'witness plugin word');
    expect(row).toMatchObject({ agent: 'opencode', agentVersion: '1.18.33', hook: { word: 'idle' }, disputed: null });

    // Nothing of the person's was written, nothing of the worker's setup is in its worktree.
    expect(readFileSync(join(w.agentHome, '.config', 'opencode', 'opencode.json'), 'utf8')).toBe(personsConfig);
    expect(execFileSync('git', ['-C', w.worktreeOf(id), 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' })).toBe('');

    await w.landAndStop(id, 'Add the feature file');
    const seen = await connections.stop();
    expect(seen.peers.length, `OpenCode's connections were seen (${seen.samples} samples)`).toBeGreaterThan(0);
    expect(seen.peers.filter((p) => !isLoopback(p)), 'no connection beyond 127.0.0.1').toEqual([]);
    expect(seen.peers).toContain(`127.0.0.1:${fake.port}`);
  });
});
