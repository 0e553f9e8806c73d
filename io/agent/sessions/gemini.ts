/**
 * Gemini CLI's session record (0.61.0): one JSONL file per session,
 * `<GEMINI_CLI_HOME>/.gemini/tmp/<project>/chats/session-<time>-<first 8 of the id>.jsonl`. Its
 * first line is the session's metadata (`sessionId`, `projectHash` = sha256 of the directory it
 * ran in, `startTime`); then one line per message, a message written again whole when it changes
 * (its tokens arrive after its text), and `$set` / `$rewindTo` lines. A `gemini` message's
 * `tokens` say `input` (the prompt, cached part included), `cached`, `output` and `thoughts`
 * (billed as output); `model` says whose. A rewound message was still served: it stays counted.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { count, dayOf, isRecord, type LineUsage, type SessionFormat } from './types.ts';
import { newest, regularFiles, subdirectories } from './list-files.ts';

const SESSION_FILE = /^session-.+\.jsonl$/;

export const geminiProjectHash = (dir: string): string => createHash('sha256').update(dir).digest('hex');

export const geminiSessions: SessionFormat = {
  label: 'Gemini CLI',
  async candidates(configDir, _cwd, max) {
    const tmp = join(configDir, '.gemini', 'tmp');
    const files = [];
    for (const project of await subdirectories(tmp)) files.push(...(await regularFiles(join(tmp, project, 'chats'), (n) => SESSION_FILE.test(n))));
    return newest(files, max);
  },
  identity(head) {
    const first = head.split('\n', 1)[0] ?? '';
    let meta: unknown;
    try {
      meta = JSON.parse(first);
    } catch {
      return null;
    }
    if (!isRecord(meta) || typeof meta.sessionId !== 'string') return null;
    return { sessionId: meta.sessionId, cwd: null, ...(typeof meta.projectHash === 'string' ? { projectHash: meta.projectHash } : {}) };
  },
  ranIn: (id, worktree) => id.projectHash === geminiProjectHash(worktree),
  usageReader() {
    return (line): LineUsage => {
      if (!line.includes('"tokens"')) return 'none';
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        return 'malformed';
      }
      if (!isRecord(msg) || msg.type !== 'gemini' || msg.tokens === null || msg.tokens === undefined) return 'none';
      if (!isRecord(msg.tokens) || typeof msg.id !== 'string') return 'malformed';
      const t = msg.tokens;
      const cached = count(t.cached);
      return {
        model: typeof msg.model === 'string' && msg.model !== '' ? msg.model : 'unknown',
        day: dayOf(msg.timestamp, Date.now()),
        counts: { input: Math.max(0, count(t.input) - cached), output: count(t.output) + count(t.thoughts), cacheRead: cached, cacheWrite: 0, cacheWrite1h: 0 },
        key: msg.id,
      };
    };
  },
};
