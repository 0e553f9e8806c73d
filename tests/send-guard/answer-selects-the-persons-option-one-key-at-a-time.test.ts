/**
 * `hand answer <id> <option> --fingerprint <fp>` selects the option the person chose: the keys
 * go out one per call with the screen read back between them, and the dialog must be the one
 * the caller read (its fingerprint from `hand read --json`), or nothing is pressed. A free-text
 * option is only reached; the send that follows types into its live field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('answer');
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
  for (const [id, task] of [['q1', 'MODE:ask pick'], ['q2', 'MODE:ask pick'], ['p1', 'MODE:bash[[touch approved.txt]] run it']]) {
    const d = await w.hand(['dispatch', id!, '--repo', w.repo, '--brief', w.brief(id!, task!), '--agent', 'mock', '--json']);
    expect(d.code, d.stderr).toBe(0);
    const blocked = await w.hand(['wait', id!, '--until', 'blocked', '--timeout', '30s', '--json']);
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
    expect(blocked.json.dialog?.fingerprint, 'wait results carry the dialog').toMatch(/^[0-9a-f]{16}$/);
  }
}, 150_000);
afterAll(async () => {
  await w?.cleanup();
});

async function dialogOf(id: string) {
  const r = await w.hand(['read', id, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const s = await w.hand(['status', id, '--json']);
  expect(s.json[0].dialog, 'status and read show the same dialog').toEqual(r.json.dialog);
  return { text: r.json.text as string, dialog: r.json.dialog as { fingerprint: string; question: string; options: { n: number; label: string }[] } };
}

const screenSays = (id: string, words: string) =>
  waitFor(async () => ((await w.hand(['read', id])).stdout.includes(words) ? true : undefined), { what: `${id} showing ${words}`, timeoutMs: 20_000 });

describe('answer selects the person\'s option one key at a time', () => {
  it('a stale fingerprint is refused and nothing is pressed', async () => {
    const before = await dialogOf('q1');
    const waited = await w.hand(['wait', 'q1', '--until', 'blocked', '--timeout', '10s']);
    expect(waited.stdout).toContain('options: 1. worker q1 wrote: "SQLite" | 2. worker q1 wrote: "Postgres"');
    expect(waited.stdout).toContain(`hand answer q1 <n> --fingerprint ${before.dialog.fingerprint}`);
    const r = await w.hand(['answer', 'q1', '2', '--fingerprint', '0123456789abcdef', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json.error.code).toBe('dialog-changed');
    expect(r.json.error.message).toContain('No key was pressed');
    expect((await dialogOf('q1')).text).toBe(before.text);
  });

  it('option 2 of the question menu: down, enter; the worker carries on with Postgres', async () => {
    const { dialog } = await dialogOf('q1');
    // The labels are the worker's words, quoted (issue 37); the number is what answer takes.
    expect(dialog.options[1]!.label).toBe('worker q1 wrote: "Postgres"');
    const r = await w.hand(['answer', 'q1', '2', '--fingerprint', dialog.fingerprint, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ option: 2, label: 'worker q1 wrote: "Postgres"', keys: ['down', 'enter'], textField: false });
    await screenSays('q1', 'you chose Postgres');
  });

  it('the free-text option is reached by keys; only then does a send type into its field', async () => {
    const { dialog } = await dialogOf('q2');
    const free = dialog.options.find((o) => o.label.includes('Type something'))!;
    const r = await w.hand(['answer', 'q2', String(free.n), '--fingerprint', dialog.fingerprint, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ textField: true, keys: Array(free.n - 1).fill('down') });
    const sent = await w.hand(['send', 'q2', 'MariaDB please']);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    await screenSays('q2', 'you chose MariaDB please');
  });

  it('option 4 of a permission dialog says No: the command never ran', async () => {
    const { dialog } = await dialogOf('p1');
    expect(dialog.question).toBe('worker p1 wrote: "Do you want to proceed?"');
    const r = await w.hand(['answer', 'p1', '4', '--fingerprint', dialog.fingerprint, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.keys).toEqual(['down', 'down', 'down', 'enter']);
    const s = await w.hand(['wait', 'p1', '--until', 'settled', '--timeout', '20s', '--json']);
    expect(s.code, s.stdout).toBe(0);
    expect((await w.hand(['read', 'p1'])).stdout).not.toContain('The tool finished: done');
  });

  it('without --fingerprint it is a usage error before the daemon is asked', async () => {
    const r = await w.hand(['answer', 'q1', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fingerprint');
  });
});
