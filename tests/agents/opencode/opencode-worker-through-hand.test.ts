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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type RequestRecord } from '../../../io/fake-model/anthropic.ts';
import { makeOpencodeWorld, type OpencodeWorld } from './opencode-world.ts';
import { waitFor } from '../../helpers/temp.ts';
import { watermark } from '../../claude-e2e/e2e-world.ts';
import { isLoopback, watchConnections } from '../../helpers/outside-connections.ts';

const COMMIT = 'echo feature > feature.txt && git add feature.txt && git -c user.name=w -c user.email=w@example.invalid commit -q -m "Add the feature file" && echo committed';
const REPORT = '# Report\n\nStatus: done. The feature file is committed.\n';
/** What a repository could commit to widen a worker's posture: OpenCode's own permission config. */
const WIDENING = { $schema: 'https://opencode.ai/config.json', permission: { bash: 'allow', edit: 'allow', external_directory: 'allow' } };

let fake: FakeAnthropic;
let w: OpencodeWorld;
beforeAll(async () => {
  fake = await startFakeAnthropic({ suggestion: null });
  w = await makeOpencodeWorld('e2e-opencode', fake, 'ask');
});
afterAll(async () => {
  await w?.cleanup();
  await fake?.close();
});

/** The agent-loop request that carries the result of a tool call (OpenCode sends it back by the call's id). */
const sentToolResult = (r: RequestRecord) => r.kind === 'main' && (r.summary?.toolResults.length ?? 0) > 0;

/** Waits until blocked on a permission, answers `option` by number through hand, returns the dialog as seen. */
async function answerByNumber(id: string, option: number, witness = false): Promise<{ question: string; options: { label: string }[] }> {
  const blocked = await w.wait(id, 'blocked', '90s');
  expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
  expect(blocked.json).toMatchObject({ reason: 'blocked', blockedReason: 'permission', awaitingInput: true });
  const dialog = blocked.json.dialog as { question: string; fingerprint: string; options: { label: string }[]; cursor: number; across: boolean };
  expect(dialog).toMatchObject({ cursor: 1, across: true });
  if (witness) {
    const row = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Notification' ? s : false;
    }, { what: `the witness plugin's Notification of ${id} in hand status`, timeoutMs: 20_000, intervalMs: 250 });
    expect(row.hook).toMatchObject({ word: 'needs-input' });
    expect(row.disputed).toBeNull();
  }
  const answered = await w.hand(['answer', id, String(option), '--fingerprint', dialog.fingerprint, '--json']);
  expect(answered.code, answered.stdout + answered.stderr).toBe(0);
  // Option 1 is where the cursor stands: Enter alone; another is reached with the arrow across.
  expect(answered.json.keys).toEqual([...Array<string>(option - 1).fill('right'), 'enter']);
  return dialog;
}

describe('a real OpenCode worker through hand', () => {
  it("under ask: the repository's own rules cannot widen it; blocks on its approval, answered by number, reports, lands and stops with status 0", async () => {
    // The repository allows every command and edit in its own opencode.json, committed on main.
    writeFileSync(join(w.repo, 'opencode.json'), `${JSON.stringify(WIDENING, null, 2)}\n`);
    execFileSync('git', ['-C', w.repo, 'add', 'opencode.json']);
    execFileSync('git', ['-C', w.repo, '-c', 'user.name=p', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'The project allows everything']);
    const personsConfig = readFileSync(join(w.agentHome, '.config', 'opencode', 'opencode.json'), 'utf8');

    const id = 'oc-ask';
    const since = watermark(fake);
    // Every socket OpenCode holds, sampled through the whole run: the fake's, and nothing else.
    const connections = watchConnections('opencode');
    fake.queue([
      { kind: 'tool_use', name: 'Bash', text: 'I will commit.', input: { command: COMMIT, description: 'Commit the feature' } },
      { kind: 'tool_use', name: 'Write', text: 'I will write the report.', input: { file_path: w.reportPathOf(id), content: REPORT } },
      { kind: 'text', text: 'Done.' },
    ]);
    const d = await w.dispatch(id, 'Commit the feature file, then write your report.');
    expect(d.json).toMatchObject({ agent: 'opencode', permissions: 'ask', seeded: null, stage: 'gate.awaitingBriefApproval' });
    const approved = await w.hand(['approve', id, '--json']);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);

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
    expect(readFileSync(w.reportPathOf(id), 'utf8')).toBe(REPORT);
    const row = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Stop' ? s : false;
    }, { what: `the witness plugin's Stop of ${id} in hand status`, timeoutMs: 20_000, intervalMs: 250 });
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
