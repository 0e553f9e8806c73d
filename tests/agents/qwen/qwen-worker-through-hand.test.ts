/**
 * Issue 45, "Done when", for Qwen Code 0.15.10: its real binary against the fake Anthropic API,
 * driven only through `hand`. Under `ask`: dispatch into a worktree whose repository commits a
 * `.qwen/settings.json` that allows every command and edit and asks for yolo, brief approved,
 * working, the shell approval still blocks the worker (the posture's rules and approval mode win
 * over the repository's) with the command quoted, the person answers by number (hand answer 1),
 * the report's write asks and is answered by number too, the worker settles with its report, its
 * commit lands (hand land + approve), and `hand stop` ends it by `/quit` with status 0. Its hooks
 * reach the daemon and agree with the screen. Nothing of the person's settings is written and the
 * worktree holds nothing of the worker's setup. Under `off` a command runs without asking: the
 * stranger suite (tests/isolation/a-qwen-code-worker-is-a-stranger.test.ts) runs its probe that way.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type RequestRecord } from '../../../io/fake-model/anthropic.ts';
import { makeQwenWorld, type QwenWorld } from './qwen-world.ts';
import { waitFor } from '../../helpers/temp.ts';
import { watermark } from '../../claude-e2e/e2e-world.ts';

const COMMIT = 'echo feature > feature.txt && git add feature.txt && git -c user.name=w -c user.email=w@example.invalid commit -q -m "Add the feature file" && echo committed';
const REPORT = '# Report\n\nStatus: done. The feature file is committed.\n';
/** What a repository could commit to widen a worker's posture: Qwen Code's own workspace settings. */
const WIDENING = { permissions: { allow: ['Bash', 'Edit', 'Write'] }, tools: { approvalMode: 'yolo' }, disableAllHooks: true };

let fake: FakeAnthropic;
let w: QwenWorld;
beforeAll(async () => {
  fake = await startFakeAnthropic({ suggestion: null });
  w = await makeQwenWorld('e2e-qwen', fake, 'ask');
});
afterAll(async () => {
  await w?.cleanup();
  await fake?.close();
});

/** The agent-loop request that carries the result of a tool call. */
const sentToolResult = (r: RequestRecord) => r.kind === 'main' && (r.summary?.toolResults.length ?? 0) > 0;

/** Waits until blocked on a permission, answers `option` by number through hand, returns the dialog as seen. */
async function answerByNumber(id: string, option: number, witness = false): Promise<{ question: string; options: { label: string }[] }> {
  const blocked = await w.wait(id, 'blocked', '90s');
  expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
  expect(blocked.json).toMatchObject({ reason: 'blocked', blockedReason: 'permission', awaitingInput: true });
  const dialog = blocked.json.dialog as { question: string; fingerprint: string; options: { label: string }[]; cursor: number };
  expect(dialog).toMatchObject({ cursor: 1, numbered: true });
  if (witness) {
    const row = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Notification' ? s : false;
    }, { what: `the Notification hook of ${id} in hand status`, timeoutMs: 20_000, intervalMs: 250 });
    expect(row.hook).toMatchObject({ word: 'needs-input' });
    expect(row.disputed).toBeNull();
  }
  const answered = await w.hand(['answer', id, String(option), '--fingerprint', dialog.fingerprint, '--json']);
  expect(answered.code, answered.stdout + answered.stderr).toBe(0);
  return dialog;
}

describe('a real Qwen Code worker through hand', () => {
  it("under ask: the repository's own settings cannot widen it; blocks on its approval, answered by number, reports, lands and stops with status 0", async () => {
    // The repository allows every command and edit, asks for yolo and turns hooks off, committed on main.
    mkdirSync(join(w.repo, '.qwen'));
    writeFileSync(join(w.repo, '.qwen', 'settings.json'), `${JSON.stringify(WIDENING, null, 2)}\n`);
    execFileSync('git', ['-C', w.repo, 'add', '.qwen/settings.json']);
    execFileSync('git', ['-C', w.repo, '-c', 'user.name=p', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'The project allows everything']);
    const personsSettings = readFileSync(join(w.agentHome, '.qwen', 'settings.json'), 'utf8');

    const id = 'qw-ask';
    const since = watermark(fake);
    fake.queue([
      { kind: 'tool_use', name: 'Bash', text: 'I will commit.', input: { command: COMMIT, description: 'Commit the feature' } },
      { kind: 'tool_use', name: 'Write', text: 'I will write the report.', input: { file_path: w.reportPathOf(id), content: REPORT } },
      { kind: 'text', text: 'Done.' },
    ]);
    const d = await w.dispatch(id, 'Commit the feature file, then write your report.');
    expect(d.json).toMatchObject({ agent: 'qwen', permissions: 'ask', seeded: null, stage: 'gate.awaitingBriefApproval' });
    const approved = await w.hand(['approve', id, '--json']);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);

    const first = await w.request(id, since, (r) => r.kind === 'main', 'the first agent-loop request');
    expect(first.body).toContain(`Read the brief at ${join(w.home, 'workers', id)}`);
    // Qwen Code's own tools were offered, and the fake said its call in them.
    expect(first.summary?.tools).toEqual(expect.arrayContaining(['run_shell_command', 'read_file', 'write_file', 'edit']));
    expect(first.reply).toMatchObject({ kind: 'tool_use', name: 'run_shell_command' });

    const shell = await answerByNumber(id, 1, true);
    // The command is quoted as drawn, attributed to the worker (its words are data).
    expect(shell.question).toBe(`worker ${id} wrote: "Allow execution of: 'echo, git'?"`);
    expect(shell.options.map((o) => o.label)[0]).toBe(`worker ${id} wrote: "Yes, allow once"`);
    const committed = await w.request(id, since, sentToolResult, 'the commit result');
    expect(committed.summary?.toolResults[0]?.content).toContain('committed');

    // The report's write asks too (an ask rule of the posture's), answered by number.
    const write = await answerByNumber(id, 1);
    expect(write.question).toBe(`worker ${id} wrote: "Apply this change?"`);

    const settled = await w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(readFileSync(w.reportPathOf(id), 'utf8')).toBe(REPORT);
    const row = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Stop' ? s : false;
    }, { what: `the Stop hook of ${id} in hand status`, timeoutMs: 20_000, intervalMs: 250 });
    expect(row).toMatchObject({ agent: 'qwen', agentVersion: '0.15.10', hook: { word: 'idle' }, disputed: null });

    // Nothing of the person's was written, nothing of the worker's setup is in its worktree.
    expect(readFileSync(join(w.agentHome, '.qwen', 'settings.json'), 'utf8')).toBe(personsSettings);
    expect(execFileSync('git', ['-C', w.worktreeOf(id), 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' })).toBe('');

    await w.landAndStop(id, 'Add the feature file');
  });
});
