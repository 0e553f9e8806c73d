/**
 * The permission posture with the real Claude Code 2.1.332 against the fake model API.
 * Default posture (off): a scripted Bash command and a file edit run with nobody pressing a key
 * and the worker settles; a Read under the worker HOME's .ssh comes back refused and the key's
 * content reaches no request the fake received. Posture ask: the same command blocks with reason
 * `permission`.
 *
 * IS_SANDBOX=1: this suite runs as root in a container, where Claude Code refuses bypass mode
 * unless told it is sandboxed (dispatch refuses first without it; tested in
 * tests/permissions/posture-cli.test.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { type E2eWorld, sentToolResult, useE2eWorld, watermark } from './e2e-world.ts';

const SECRET = 'kh-test-private-key-material-7f3a9c';
const SANDBOX = { IS_SANDBOX: '1' };
const BASH = 'touch made-by-bash.txt && echo bash-ran';

let fake: FakeAnthropic;
let w: E2eWorld;
useE2eWorld('e2e-posture', { permissions: 'off' }, { suggestion: null }, (made) => {
  ({ fake, w } = made);
  mkdirSync(join(w.agentHome, '.ssh'), { mode: 0o700 });
  writeFileSync(join(w.agentHome, '.ssh', 'id_ed25519'), `-----BEGIN KEY-----\n${SECRET}\n-----END KEY-----\n`, { mode: 0o600 });
});

describe('permission posture, real Claude Code', () => {
  it('under the default posture a command and an edit run unprompted, .ssh reads are refused, and the worker settles', async () => {
    const id = 'posture-off';
    const wt = w.worktreeOf(id);
    const since = watermark(fake);
    fake.queue([
      { kind: 'tool_use', name: 'Bash', text: 'I will run a command.', input: { command: BASH, description: 'Create a file' } },
      { kind: 'tool_use', name: 'Read', input: { file_path: join(wt, 'README.md') } },
      { kind: 'tool_use', name: 'Edit', input: { file_path: join(wt, 'README.md'), old_string: '# e2e repo', new_string: '# edited by the worker' } },
      { kind: 'tool_use', name: 'Read', input: { file_path: join(w.agentHome, '.ssh', 'id_ed25519') } },
      { kind: 'tool_use', name: 'Write', input: { file_path: w.reportPathOf(id), content: '# Report\n\nStatus: done.\n' } },
      { kind: 'text', text: 'Done.' },
    ]);
    const d = await w.dispatch(id, 'tmux', 'Run the scripted steps.', [], SANDBOX);
    expect(d.json.permissions).toBe('off');

    const settled = await w.wait(id, 'settled', '90s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(settled.json).toMatchObject({ reason: 'settled' });

    const bash = await w.request(id, since, sentToolResult((c) => c.includes('bash-ran')), 'the Bash result');
    expect(bash.summary!.toolResults[0]!.isError).toBe(false);
    expect(existsSync(join(wt, 'made-by-bash.txt'))).toBe(true);
    expect(readFileSync(join(wt, 'README.md'), 'utf8')).toContain('# edited by the worker');

    const refused = await w.request(id, since, sentToolResult((c) => /denied/i.test(c)), 'the refused Read of ~/.ssh');
    expect(refused.summary!.toolResults[0]!.isError).toBe(true);
    const leaked = fake.received.filter((r) => (r.body ?? '').includes(SECRET)).map((r) => r.seq);
    expect(leaked, 'requests carrying the key material').toEqual([]);

    const row = await w.status(id);
    expect(row).toMatchObject({ permissions: 'off', reportExists: true });
    const settings = JSON.parse(readFileSync(join(wt, '.claude', 'settings.local.json'), 'utf8'));
    expect(settings.skipDangerousModePermissionPrompt).toBe(true);
    expect(settings.permissions.deny).toContain('Read(~/.ssh/**)');
  });

  it('under posture ask the same command blocks with reason permission', async () => {
    const set = await w.hand(['project', 'set', 'repo', '--permissions', 'ask', '--json']);
    expect(set.code, set.stdout + set.stderr).toBe(0);
    const id = 'posture-ask';
    fake.queue([{ kind: 'tool_use', name: 'Bash', text: 'I will run a command.', input: { command: BASH, description: 'Create a file' } }]);
    const d = await w.dispatch(id, 'tmux', 'Run the scripted steps.', []);
    expect(d.json.permissions).toBe('ask');
    const blocked = await w.wait(id, 'blocked', '60s');
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
    expect(blocked.json).toMatchObject({ reason: 'blocked', blockedReason: 'permission' });
    expect(existsSync(join(w.worktreeOf(id), 'made-by-bash.txt'))).toBe(false);
    expect((await w.status(id)).permissions).toBe('ask');
  });
});
