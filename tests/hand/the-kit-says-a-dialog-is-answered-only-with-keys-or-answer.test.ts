/**
 * The kit `hand init` writes tells the Hand how a worker's question is answered (issue 21): a
 * menu or dialog only with `answer` or `keys` (one key per call), with the person's answer only,
 * never by `send`; a parked decision only with `decide`. The old text said to "relay" an answer
 * "one key or one line at a time" — a line sent into a menu picked its highlighted row.
 */
import { describe, expect, it } from 'vitest';
import { useKit } from '../helpers/kit-workspace.ts';

const makeKit = useKit();

describe('the kit says a dialog is answered only with keys or answer', () => {
  it('CLAUDE.md, muster and rally name answer/keys for dialogs, decide for decisions, and never send a line into a dialog', async () => {
    const { read } = await makeKit('kit-answer');
    const claude = read('CLAUDE.md');
    expect(claude).toContain('A menu or dialog is answered only with `answer`');
    expect(claude).toContain('one key per call, with the person\'s answer only; `send` into a dialog is refused. A parked decision is answered only with `decide`.');
    expect(claude).not.toContain('one key or one line at a time');
    const muster = read('.claude/skills/muster/SKILL.md');
    expect(muster).toContain('`send` never answers a dialog');
    expect(muster).toMatch(/decide <key> "<their answer>"`, never `send`/);
    expect(muster).not.toMatch(/\{\{HAND\}\}/);
    expect(muster).not.toMatch(/relay it with `keys` \(one key per call, `read` between\) or `send`/);
    expect(read('.claude/skills/rally/SKILL.md')).toContain('Never `send` into a dialog; a parked decision only with `decide`.');
  });
});
