/**
 * Claude Code's session record (2.1.332, the same since 1.x): one JSONL file per session,
 * `<CLAUDE_CONFIG_DIR>/projects/<cwd with every character but letters and digits turned to '-'>/<session id>.jsonl`.
 * Its first conversation entry (a `user` line) carries `sessionId` and `cwd`. Each reply of the
 * model is written as one `assistant` line per content block, every one with the same
 * `message.id` and `message.usage`: usage is counted once per message id. The usage names
 * `input_tokens` (uncached), `cache_read_input_tokens`, `cache_creation_input_tokens` and
 * `output_tokens`; `message.model` says whose.
 */
import { basename, join } from 'node:path';
import { count, dayOf, isRecord, type LineUsage, type SessionFormat, type SessionIdentity } from './types.ts';
import { newest, regularFiles, subdirectories } from './list-files.ts';

/** The project directory name Claude Code keeps a cwd's sessions under. */
export function claudeProjectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

export const claudeSessions: SessionFormat = {
  label: 'Claude Code',
  async candidates(configDir, cwd, max) {
    const projects = join(configDir, 'projects');
    const own = await regularFiles(join(projects, claudeProjectSlug(cwd)), (n) => SESSION_FILE.test(n));
    if (own.length > 0) return newest(own, max);
    // A release that names the directory otherwise (a long path shortened): every project's.
    const all = [];
    for (const dir of await subdirectories(projects)) all.push(...(await regularFiles(join(projects, dir), (n) => SESSION_FILE.test(n))));
    return newest(all, max);
  },
  identity(head, file) {
    const named = basename(file).replace(/\.jsonl$/, '');
    for (const line of head.split('\n')) {
      if (!line.includes('"cwd"')) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isRecord(entry) || typeof entry.cwd !== 'string' || typeof entry.sessionId !== 'string') continue;
      return { sessionId: entry.sessionId, cwd: entry.cwd };
    }
    // No conversation entry in the head: the file names its session only by its own name.
    return SESSION_FILE.test(basename(file)) ? { sessionId: named, cwd: null } : null;
  },
  ranIn: (id: SessionIdentity, worktree) => id.cwd === worktree,
  usageReader() {
    return (line): LineUsage => {
      if (!line.includes('"usage"')) return 'none';
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        return 'malformed';
      }
      if (!isRecord(entry) || entry.type !== 'assistant') return 'none';
      const message = entry.message;
      if (!isRecord(message) || !isRecord(message.usage)) return 'malformed';
      const u = message.usage;
      // A synthetic reply (an API error shown as a message) names no real model: nothing was served.
      if (message.model === '<synthetic>') return 'none';
      const key = typeof message.id === 'string' ? message.id : typeof entry.requestId === 'string' ? entry.requestId : undefined;
      return {
        model: typeof message.model === 'string' && message.model !== '' ? message.model : 'unknown',
        day: dayOf(entry.timestamp, Date.now()),
        counts: {
          input: count(u.input_tokens), output: count(u.output_tokens), cacheRead: count(u.cache_read_input_tokens), cacheWrite: count(u.cache_creation_input_tokens),
          cacheWrite1h: isRecord(u.cache_creation) ? count(u.cache_creation.ephemeral_1h_input_tokens) : 0,
        },
        ...(key ? { key } : {}),
      };
    };
  },
};
