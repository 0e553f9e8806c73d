/**
 * Rule (issue 41, faults and bad input): a worker's conversation is resumed only from a session
 * file that proves to be its — in the format its agent writes, naming the session its file name
 * says, run in the worker's worktree, whole to its last record — and read as a stranger's file.
 * Missing, cut short, another worktree's, a link to another worker's session, a hard link: each is
 * refused with which problem, never resumed; looking for a session never picks another worktree's.
 * The records are shaped as Claude Code 2.1.332, Codex 0.169.0 and Gemini CLI 0.61.0 write them.
 */
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectSlug, claudeSessions } from '../../io/agent/sessions/claude.ts';
import { codexSessions } from '../../io/agent/sessions/codex.ts';
import { geminiProjectHash, geminiSessions } from '../../io/agent/sessions/gemini.ts';
import { findSession, proveSession } from '../../io/agent/sessions/prove.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();
const temp = { make: () => tempDir('sessions-proof') };
const ID = '0b596702-3085-4e4a-95bb-502c1acf087c';
const OTHER = '1d13dc45-23f2-48a3-889b-65b7d70de993';

const lines = (...records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/** A Claude Code transcript as 2.1.332 writes one: mode lines without a cwd, then the conversation. */
function claudeTranscript(sessionId: string, cwd: string): string {
  return lines(
    { type: 'mode', mode: 'default', sessionId },
    { type: 'file-history-snapshot', messageId: 'm', snapshot: {}, isSnapshotUpdate: false },
    { type: 'user', message: { role: 'user', content: 'Read the brief' }, uuid: 'u1', timestamp: '2026-12-06T04:22:42.029Z', cwd, sessionId },
    { type: 'assistant', message: { id: 'msg_1', model: 'claude-opus-5-5', usage: { input_tokens: 42, output_tokens: 12 } }, timestamp: '2026-12-06T04:22:42.588Z', cwd, sessionId },
  );
}

function claudeFile(configDir: string, cwd: string, sessionId: string, text: string): string {
  const dir = join(configDir, 'projects', claudeProjectSlug(cwd));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, text);
  return file;
}

describe('a session is resumed only when its file proves it is the worker\'s', () => {
  it('Claude Code: its own, whole session proves; missing, cut short, another worktree\'s or another session\'s is refused, naming which', async () => {
    const root = temp.make();
    const config = join(root, 'agents', 'w1', 'claude');
    const worktree = join(root, 'repo', '.claude', 'worktrees', 'w1');
    const file = claudeFile(config, worktree, ID, claudeTranscript(ID, worktree));
    expect(await proveSession(claudeSessions, file, worktree, ID)).toEqual({ ok: true, sessionId: ID, file });

    expect(await proveSession(claudeSessions, join(config, 'projects', 'x', `${OTHER}.jsonl`), worktree)).toMatchObject({ ok: false, why: 'missing' });

    const text = claudeTranscript(ID, worktree);
    writeFileSync(file, text.slice(0, -15));
    expect(await proveSession(claudeSessions, file, worktree, ID)).toMatchObject({ ok: false, why: 'truncated', detail: expect.stringContaining('cut short') });
    writeFileSync(file, text);

    const elsewhere = join(root, 'repo', '.claude', 'worktrees', 'w2');
    expect(await proveSession(claudeSessions, file, elsewhere, ID)).toMatchObject({ ok: false, why: 'another-worktree', detail: expect.stringContaining(worktree) });
    // A file named for one session holding another's conversation is no proof of either.
    const renamed = claudeFile(config, worktree, OTHER, text);
    expect(await proveSession(claudeSessions, renamed, worktree, OTHER)).toMatchObject({ ok: false, why: 'another-worktree', detail: expect.stringContaining(`is session ${ID}`) });
    // Only its mode lines written so far: no conversation to resume yet.
    writeFileSync(renamed, lines({ type: 'mode', mode: 'default', sessionId: OTHER }));
    expect(await proveSession(claudeSessions, renamed, worktree, OTHER)).toMatchObject({ ok: false, why: 'truncated' });
  });

  it('a link or a hard link in the worker\'s directory to another worker\'s session is refused, never followed', async () => {
    const root = temp.make();
    const worktree = join(root, 'wt');
    const theirs = claudeFile(join(root, 'agents', 'w2', 'claude'), worktree, ID, claudeTranscript(ID, worktree));
    const mine = join(root, 'agents', 'w1', 'claude', 'projects', claudeProjectSlug(worktree));
    mkdirSync(mine, { recursive: true });
    symlinkSync(theirs, join(mine, `${ID}.jsonl`));
    expect(await proveSession(claudeSessions, join(mine, `${ID}.jsonl`), worktree, ID)).toMatchObject({ ok: false, why: 'refused', detail: expect.stringContaining('symbolic link') });
    linkSync(theirs, join(mine, `${OTHER}.jsonl`));
    expect(await proveSession(claudeSessions, join(mine, `${OTHER}.jsonl`), worktree)).toMatchObject({ ok: false, why: 'refused', detail: expect.stringContaining('hard link') });
    // Looking for one finds neither: a link is not listed as a session, a hard link does not prove.
    expect(await findSession(claudeSessions, join(root, 'agents', 'w1', 'claude'), worktree, {})).toBeNull();
  });

  it('looking for a worker\'s session takes the newest that ran in its worktree, never a newer one of another worktree', async () => {
    const root = temp.make();
    const config = join(root, 'claude');
    const worktree = join(root, 'wt-a');
    const mine = claudeFile(config, worktree, ID, claudeTranscript(ID, worktree));
    // Another worktree's session, newer, in the same (shared, unsandboxed) directory.
    claudeFile(config, join(root, 'wt-b'), OTHER, claudeTranscript(OTHER, join(root, 'wt-b')));
    expect(await findSession(claudeSessions, config, worktree, {})).toEqual({ ok: true, sessionId: ID, file: mine });
    // A hook that names another worktree's session (a worker's word) records nothing.
    expect(await findSession(claudeSessions, config, worktree, { hint: OTHER })).toBeNull();
    // Written before this launch began: not this launch's session.
    expect(await findSession(claudeSessions, config, worktree, { since: Date.now() + 60_000 })).toBeNull();
  });

  it('Codex CLI: its rollout proves by session_meta (id and cwd); another worktree\'s or one cut short is refused', async () => {
    const root = temp.make();
    const worktree = join(root, 'wt');
    const day = join(root, 'codex', 'sessions', '2026', '12', '06');
    mkdirSync(day, { recursive: true });
    const file = join(day, `rollout-2026-12-06T04-22-45-${ID}.jsonl`);
    const text = lines(
      { timestamp: '2026-12-06T04:22:46.287Z', type: 'session_meta', payload: { id: ID, session_id: ID, cwd: worktree, cli_version: '0.169.0' } },
      { timestamp: '2026-12-06T04:22:46.314Z', type: 'turn_context', payload: { cwd: worktree, model: 'gpt-fake' } },
    );
    writeFileSync(file, text);
    expect(await findSession(codexSessions, join(root, 'codex'), worktree, {})).toEqual({ ok: true, sessionId: ID, file });
    expect(await proveSession(codexSessions, file, join(root, 'other'), ID)).toMatchObject({ ok: false, why: 'another-worktree' });
    writeFileSync(file, `${text}{"timestamp":"2026-12-06T04:22:47Z","type":"event_msg","payl`);
    expect(await proveSession(codexSessions, file, worktree, ID)).toMatchObject({ ok: false, why: 'truncated' });
    // A rollout whose name names another session than its first line does.
    const misnamed = join(day, `rollout-2026-12-06T04-22-45-${OTHER}.jsonl`);
    writeFileSync(misnamed, text);
    expect(await proveSession(codexSessions, misnamed, worktree, OTHER)).toMatchObject({ ok: false, why: 'another-worktree' });
  });

  it('Gemini CLI: its chat proves by the hash of the directory it ran in', async () => {
    const root = temp.make();
    const worktree = join(root, 'wt');
    const chats = join(root, 'gemini-home', '.gemini', 'tmp', 'wt', 'chats');
    mkdirSync(chats, { recursive: true });
    const file = join(chats, `session-1796530966000-${ID.slice(0, 8)}.jsonl`);
    writeFileSync(file, lines({ sessionId: ID, projectHash: geminiProjectHash(worktree), startTime: '2026-12-06T04:22:45.000Z' }, { id: 'm1', type: 'user', content: 'Read the brief', timestamp: '2026-12-06T04:22:46.000Z' }));
    expect(await findSession(geminiSessions, join(root, 'gemini-home'), worktree, { hint: ID })).toEqual({ ok: true, sessionId: ID, file });
    expect(await proveSession(geminiSessions, file, join(root, 'elsewhere'), ID)).toMatchObject({ ok: false, why: 'another-worktree' });
  });
});
