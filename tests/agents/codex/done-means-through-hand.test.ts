/**
 * Issue 27's "Done means" for Codex CLI, with the real 0.169.0 binary against the fake Responses
 * API, driven through `hand`: dispatch into a worktree (trust seeded, nothing asks at start) →
 * working → under `ask` an escalated command is put to a person → `blocked` with the model's
 * question quoted → answered with one key → the command runs (commit + report) → settles → the
 * report is there → the commit lands and the worker ends by /exit with status 0. Under `off` a command runs
 * without asking.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileCommand } from '../../../io/fake-model/codex.ts';
import { waitFor } from '../../helpers/temp.ts';
import { useCodexWorld } from './codex-world.ts';

const cx = useCodexWorld('codex-e2e');

const QUESTION = 'May I commit feature.txt and write the report?';

/** The report is there once the worker settled; when it is not, the failure shows the screen it settled on (a flake seen once). */
async function expectReport(id: string): Promise<void> {
  const path = cx.w.reportPathOf(id);
  if (!existsSync(path)) {
    const screen = await cx.w.hand(['read', id, '--scrollback', '60']).then((r) => r.stdout, (err: unknown) => String(err));
    expect.fail(`${id} settled without its report at ${path}; its screen:\n${screen}`);
  }
  expect(readFileSync(path, 'utf8')).toContain('Status: done.');
}

describe('a Codex CLI worker through hand', () => {
  it('ask: blocked with the question quoted, answered with a key, settles with its report, lands its commit and ends by /exit with status 0', async () => {
    const repo = await cx.w.annex('asked', 'ask');
    const id = 'cx-ask';
    const worktree = cx.w.worktreeOf(repo, id);
    // No global git identity here: the commit names its own, as a worker's git config would.
    const work = [
      'echo feature > feature.txt',
      'git add feature.txt',
      'git -c user.name=w -c user.email=w@example.invalid commit -q -m "Add the feature file"',
      writeFileCommand(cx.w.reportPathOf(id), '# Report\n\nStatus: done.'),
    ].join(' && ');
    cx.fake.queue([{ kind: 'shell', cmd: work, escalate: QUESTION, text: 'I will commit and report.' }]);
    const d = await cx.w.dispatch(id, repo, 'Commit the feature file and report.');
    expect(d.json).toMatchObject({ agent: 'codex', permissions: 'ask', worktree });
    expect(d.json.postureGap).toContain('commands that only read run without asking');
    // No ~/.claude.json is planned for a Codex worker: its trust went into config.toml.
    expect(d.json.seeded).toBeNull();

    const blocked = await cx.w.wait(id, 'blocked', '60s');
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
    expect(JSON.stringify(blocked.json)).toContain(QUESTION);
    const row = (await cx.w.hand(['status', id, '--json'])).json[0];
    expect(row).toMatchObject({ agent: 'codex', agentVersion: '0.169.0', state: 'blocked', awaitingInput: true });
    expect(existsSync(join(worktree, 'feature.txt')), 'nothing ran before the answer').toBe(false);
    // The first prompt named the report path (the decision convention and report path reach every agent).
    expect(cx.fake.turns()[0]!.summary!.lastUserText).toContain(cx.w.reportPathOf(id));

    const key = await cx.w.hand(['keys', id, 'y', '--json']);
    expect(key.code, key.stdout + key.stderr).toBe(0);
    const settled = await cx.w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectReport(id);

    // Landing ends the worker the way stop does: its exit command, never a kill.
    const land = await cx.w.hand(['land', id, '--json'], { timeoutMs: 60_000 });
    expect(land.code, land.stdout + land.stderr).toBe(0);
    const log = execFileSync('git', ['-C', repo, 'log', '--format=%s', 'main'], { encoding: 'utf8' });
    expect(log).toContain('Add the feature file');
    const stop = await cx.w.hand(['stop', id, '--json'], { timeoutMs: 30_000 });
    expect(stop.code, stop.stdout + stop.stderr).toBe(0);
    expect(stop.json).toMatchObject({ stage: 'landed', exitCode: 0 });
    const after = (await cx.w.hand(['status', id, '--json'])).json[0];
    // Codex's own goodbye on the kept screen: /exit ended it (a kill leaves none).
    expect(after).toMatchObject({ state: 'exited', exitCode: 0, live: false });
    expect(after.lastActivity).toContain('To continue this session, run:');
  }, 60_000);

  it('off: a command runs without asking', async () => {
    const repo = await cx.w.annex('unasked', 'off');
    const id = 'cx-off';
    const target = join(cx.w.worktreeOf(repo, id), 'unasked.txt');
    cx.fake.queue([{ kind: 'shell', cmd: `touch ${target}` }, { kind: 'shell', cmd: writeFileCommand(cx.w.reportPathOf(id), '# Report\n\nStatus: done.') }]);
    await cx.w.dispatch(id, repo, 'Touch a file.');
    await waitFor(() => existsSync(target), { what: 'unasked.txt, with no prompt in between', timeoutMs: 30_000 });
    const settled = await cx.w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(await cx.w.hand(['read', id, '--json']).then((r) => r.json.text as string)).not.toContain('Would you like to run');
    // The second witness: Codex's notify ran `hand hook Stop` at the turn's end, and it agrees.
    const row = await waitFor(async () => {
      const r = (await cx.w.hand(['status', id, '--json'])).json[0];
      return r.hook?.event === 'Stop' ? r : false;
    }, { what: `the notify witness of ${id} in hand status`, timeoutMs: 15_000 });
    expect(row).toMatchObject({ hook: { event: 'Stop', word: 'idle' }, disputed: null, state: 'idle' });
  }, 60_000);

  it('edits: an edit and the report are written inside the sandbox without asking (the brief directory is a writable root)', async () => {
    const repo = await cx.w.annex('edited', 'edits');
    const id = 'cx-edits';
    const work = ['echo edit > edit.txt', writeFileCommand(cx.w.reportPathOf(id), '# Report\n\nStatus: done.')].join(' && ');
    cx.fake.queue([{ kind: 'shell', cmd: work }]);
    const d = await cx.w.dispatch(id, repo, 'Write the edit file and report.');
    expect(d.json.postureGap).toContain('shell commands do not ask');
    const settled = await cx.w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    await expectReport(id);
    expect(readFileSync(join(cx.w.worktreeOf(repo, id), 'edit.txt'), 'utf8')).toBe('edit\n');
  }, 60_000);
});
