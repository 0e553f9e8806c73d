/**
 * A text send into a worker whose screen waits on a dialog is refused (issue 21 item 1): a
 * question menu has no input box, so the old box-only guard let `hand send` through and the
 * Enter at the end of the text picked the highlighted row — an answer nobody chose. The refusal
 * quotes the question and its options, names the key path, and nothing reaches the pane (the
 * screen is the same before and after, the menu still up).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('send-into-menu');
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
  for (const [id, task] of [['q1', 'MODE:ask which database'], ['p1', 'MODE:bash[[touch approved-by-nobody.txt]] run it']]) {
    const d = await w.hand(['dispatch', id!, '--repo', w.repo, '--brief', w.brief(id!, task!), '--agent', 'mock', '--json']);
    expect(d.code, d.stderr).toBe(0);
    const blocked = await w.hand(['wait', id!, '--until', 'blocked', '--timeout', '30s', '--json']);
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
  }
}, 120_000);
afterAll(async () => {
  await w?.cleanup();
});

async function screenOf(id: string): Promise<string> {
  const r = await w.hand(['read', id]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('a text send into a menu is refused', () => {
  it('hand send into a question menu exits 1, quotes the question and options, names hand keys / hand answer; the menu stays', async () => {
    const before = await screenOf('q1');
    expect(before).toContain('Type something.');
    const r = await w.hand(['send', 'q1', 'use whatever you think', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('awaiting-input');
    expect(r.stderr).toContain('Which database');
    expect(r.stderr).toContain('1. worker q1 wrote: "SQLite"'); // the worker's words, quoted (issue 37)
    expect(r.stderr).toContain('hand keys q1');
    expect(r.stderr).toContain('hand answer q1');
    expect(r.stderr).toContain('nothing was sent');
    const s = await w.hand(['status', 'q1', '--json']);
    expect(s.json[0]).toMatchObject({ condition: 'blocked' });
    expect(await screenOf('q1')).toBe(before);
  });

  it('hand send into a permission dialog is refused; the command was not approved', async () => {
    const before = await screenOf('p1');
    expect(before).toContain('Do you want to proceed?');
    const r = await w.hand(['send', 'p1', 'what are you doing?']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('Do you want to proceed?');
    expect(r.stderr).toContain('1. worker p1 wrote: "Yes"');
    expect(await screenOf('p1')).toBe(before);
    const s = await w.hand(['status', 'p1', '--json']);
    expect(s.json[0]).toMatchObject({ condition: 'blocked' });
  });

  it('--allow-non-empty-box does not override it: that override is for text in the box, not for a dialog', async () => {
    const before = await screenOf('q1');
    const r = await w.hand(['send', 'q1', 'anything', '--allow-non-empty-box']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('awaiting-input');
    expect(await screenOf('q1')).toBe(before);
  });
});
