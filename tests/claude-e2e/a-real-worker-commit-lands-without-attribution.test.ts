/**
 * Attribution is off for every worker (issue 23 item 2): Claude Code 2.1.332 adds a co-author
 * trailer to commits unless its settings say otherwise, and `hand land` refuses any commit that
 * names one. End to end with the real binary against the fake model: the worker's first request
 * carries no co-author instruction in its system prompt, the fake commits through Bash in the
 * worktree, and `hand land` + `hand approve` fast-forward it onto main (local-only, yolo off).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { DONE_MEANS_LINE } from '../../daemon/fleet/dispatch.ts';
import { type E2eWorld, sentToolResult, useE2eWorld, watermark } from './e2e-world.ts';

const SANDBOX = { IS_SANDBOX: '1' };
// No global git identity in this container: the commit names its own, as a worker's git config would.
const COMMIT = 'echo feature > feature.txt && git add feature.txt && git -c user.name=w -c user.email=w@example.invalid commit -q -m "Add the feature file" && echo committed';

let fake: FakeAnthropic;
let w: E2eWorld;
useE2eWorld('e2e-attribution', { permissions: 'off', yolo: false }, { suggestion: null }, (made) => void ({ fake, w } = made));

const log = (ref: string) => execFileSync('git', ['-C', w.repo, 'log', '--format=%B', ref], { encoding: 'utf8' });

describe('attribution is off for every worker', () => {
  it('a real worker commit carries no co-author line and lands with hand land + hand approve', async () => {
    const id = 'attr';
    const since = watermark(fake);
    fake.queue([
      { kind: 'tool_use', name: 'Bash', text: 'I will commit.', input: { command: COMMIT, description: 'Commit the feature' } },
      { kind: 'tool_use', name: 'Write', input: { file_path: w.reportPathOf(id), content: '# Report\n\nStatus: done.\n' } },
      { kind: 'text', text: 'Done.' },
    ]);
    const d = await w.dispatch(id, 'tmux', 'Commit the feature file.', [], SANDBOX);
    expect(d.json.stage).toBe('gate.awaitingBriefApproval');
    const brief = await w.hand(['approve', id, '--json']);
    expect(brief.code, brief.stdout + brief.stderr).toBe(0);

    const first = await w.request(id, since, (r) => r.kind === 'main', 'the first agent-loop request');
    // The commit instructions ride in the system prompt and the Bash tool's description: the
    // whole request is searched, so a trailer instruction anywhere in it fails.
    // (2.1.332 puts its trailer instruction in a system reminder of the first message.)
    expect(first.body, 'the recorded request body').toBeTruthy();
    expect(/co-authored-by/i.test(first.summary!.systemText), 'a co-author instruction in the system prompt').toBe(false);
    expect(/co-authored-by/i.test(first.body!), 'a co-author instruction anywhere in the first request').toBe(false);
    // The Done-means line reached the worker in its first prompt.
    expect(first.body).toContain(DONE_MEANS_LINE);
    const committed = await w.request(id, since, sentToolResult((c) => c.includes('committed')), 'the commit result');
    expect(committed.summary!.toolResults[0]!.isError).toBe(false);
    const settled = await w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);

    const written = JSON.parse(readFileSync(join(w.worktreeOf(id), '.claude', 'settings.local.json'), 'utf8'));
    expect(written).toMatchObject({ attribution: { commit: '', pr: '' }, includeCoAuthoredBy: false });
    expect(log(`worktree-${id}`)).not.toMatch(/co-authored|claude|assistant/i);

    const land = await w.hand(['land', id, '--json']);
    expect(land.code, land.stdout + land.stderr).toBe(0);
    expect(land.json).toMatchObject({ gate: 'open', evidence: { verdict: 'ready' } });
    const approve = await w.hand(['approve', id, '--json'], { timeoutMs: 90_000 });
    expect(approve.code, approve.stdout + approve.stderr).toBe(0);
    expect(approve.json).toMatchObject({ stage: 'landed', landed: { target: 'main' } });
    expect(log('main')).toContain('Add the feature file');
  });
});
