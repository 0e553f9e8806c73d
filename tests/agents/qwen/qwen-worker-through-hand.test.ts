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
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../../io/fake-model/anthropic.ts';
import { makeQwenWorld } from './qwen-world.ts';
import {
  answer, blockedOnPermission, dispatchAndApprove, expectNeedsInputHeard, sentToolResult, THE_WORK, theWorkOnAnthropic, useAgentWorld, witnessSaid, type SeenDialog,
} from '../through-hand-steps.ts';
import { watermark } from '../../claude-e2e/e2e-world.ts';

/** What a repository could commit to widen a worker's posture: Qwen Code's own workspace settings. */
const WIDENING = { permissions: { allow: ['Bash', 'Edit', 'Write'] }, tools: { approvalMode: 'yolo' }, disableAllHooks: true };

const the = useAgentWorld(() => startFakeAnthropic({ suggestion: null }), (fake) => makeQwenWorld('e2e-qwen', fake, 'ask'));

/** Waits until blocked on a permission, answers `option` by number through hand, returns the dialog as seen. */
async function answerByNumber(id: string, option: number, witness = false): Promise<SeenDialog> {
  const { w } = the;
  const dialog = await blockedOnPermission(w, id, '90s');
  expect(dialog).toMatchObject({ cursor: 1, numbered: true });
  if (witness) await expectNeedsInputHeard(w, id);
  await answer(w, id, option, dialog);
  return dialog;
}

describe('a real Qwen Code worker through hand', () => {
  it("under ask: the repository's own settings cannot widen it; blocks on its approval, answered by number, reports, lands and stops with status 0", async () => {
    const { w, fake } = the;
    // The repository allows every command and edit, asks for yolo and turns hooks off, committed on main.
    mkdirSync(join(w.repo, '.qwen'));
    writeFileSync(join(w.repo, '.qwen', 'settings.json'), `${JSON.stringify(WIDENING, null, 2)}\n`);
    execFileSync('git', ['-C', w.repo, 'add', '.qwen/settings.json']);
    execFileSync('git', ['-C', w.repo, '-c', 'user.name=p', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'The project allows everything']);
    const personsSettings = readFileSync(join(w.agentHome, '.qwen', 'settings.json'), 'utf8');

    const id = 'qw-ask';
    const since = watermark(fake);
    fake.queue(theWorkOnAnthropic(w.reportPathOf(id)));
    await dispatchAndApprove(w, id, 'qwen');

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
    expect(readFileSync(w.reportPathOf(id), 'utf8')).toBe(THE_WORK.report);
    // Its turn's end as Qwen Code says it: Stop, then an idle_prompt Notification ~0.2 s later
    // (status shows the last; a slow poll sees only the second). Both are the word idle.
    const row = await witnessSaid(w, id, ['Stop', 'Notification'], 'hook', 'idle');
    expect(row).toMatchObject({ agent: 'qwen', agentVersion: '0.15.10', hook: { word: 'idle' }, disputed: null });

    // Nothing of the person's was written, nothing of the worker's setup is in its worktree.
    expect(readFileSync(join(w.agentHome, '.qwen', 'settings.json'), 'utf8')).toBe(personsSettings);
    expect(execFileSync('git', ['-C', w.worktreeOf(id), 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' })).toBe('');

    await w.landAndStop(id, 'Add the feature file');
  });
});
