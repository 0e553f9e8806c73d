/**
 * data/index.md: one line per durable file under data/ (workflow §4.1-4.2, adapted to POSIX
 * paths): "- `data/<path>` - <summary> (added YYYY-MM-DD)". The summary is at most 160
 * characters after whitespace is collapsed; a longer one is refused, never cut (a cut summary
 * lies). Re-adding a path rewrites its line and keeps its date. A project's own index,
 * data/index/<project>.md, has the same lines (`--project`): dispatch's index rule reads both for
 * that project's briefs. Drift is measured across all of them (UNINDEXED files are listed nowhere,
 * STALE entries name a file that is gone) and cleared only when asked: `--prune` drops the STALE
 * lines, `remove` one entry; an index file is rewritten whole by rename, never half-written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import type { WorkspacePaths } from './layout.ts';

export const SUMMARY_MAX = 160;
const ENTRY = /^- `(data\/[^`]+)` - (.*) \(added (\d{4}-\d{2}-\d{2})\)\s*$/;

export interface IndexEntry {
  path: string;
  summary: string;
  added: string;
  exists: boolean;
}

/** Project names become file names (data/index/<project>.md). */
const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The index file of the workspace, or of one project (`--project`). */
export function indexFile(p: WorkspacePaths, project?: string): string {
  if (project === undefined) return p.index;
  if (!PROJECT_NAME.test(project) || project.includes('..')) {
    throw new UsageError('bad-project-name', `${JSON.stringify(project)} is not a project name (letters, digits, '.', '_', '-'; it names data/index/<project>.md).`, { project });
  }
  return join(p.data, 'index', `${project}.md`);
}

/** Every index file that exists: data/index.md and each data/index/<project>.md. */
function indexFiles(p: WorkspacePaths): string[] {
  const dir = join(p.data, 'index');
  const projects = existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => join(dir, f)) : [];
  return [...(existsSync(p.index) ? [p.index] : []), ...projects];
}

function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function readIndex(p: WorkspacePaths, project?: string): IndexEntry[] {
  return readIndexFile(p, indexFile(p, project));
}

function readIndexFile(p: WorkspacePaths, file: string): IndexEntry[] {
  if (!existsSync(file)) return [];
  const out: IndexEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = ENTRY.exec(line);
    // A malformed line is skipped, not fatal: one bad edit must not hide the whole index.
    if (m) out.push({ path: m[1]!, summary: m[2]!, added: m[3]!, exists: existsSync(join(p.dir, m[1]!)) });
  }
  return out;
}

/** A data path as the index writes it (`data/…`), or a usage error when it leaves data/. */
export function dataPath(p: WorkspacePaths, file: string, cwd = process.cwd()): string {
  const abs = isAbsolute(file) ? file : resolve(file.startsWith(`data${sep}`) || file.startsWith('data/') ? p.dir : cwd, file);
  const rel = relative(p.data, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new UsageError('outside-data', `${file} is not inside ${p.data}. Only files under data/ are indexed.`, { file });
  }
  return `data/${rel.split(sep).join('/')}`;
}

export function checkSummary(raw: string): string {
  const summary = raw.replace(/\s+/g, ' ').trim();
  if (!summary) throw new UsageError('empty-summary', 'the summary is empty. Say in one line what the file holds (at most 160 characters).');
  if (summary.length > SUMMARY_MAX) {
    throw new UsageError('summary-too-long', `the summary has ${summary.length} characters; at most ${SUMMARY_MAX}. The index is a table of contents, not the content: say what the file is, not what it says.`, { length: summary.length });
  }
  return summary;
}

export function addIndexEntry(p: WorkspacePaths, file: string, rawSummary: string, today = new Date().toISOString().slice(0, 10), project?: string): { path: string; summary: string; added: string; updated: boolean; index: string } {
  const path = dataPath(p, file);
  const summary = checkSummary(rawSummary);
  const target = indexFile(p, project);
  if (!existsSync(join(p.dir, path))) throw new UsageError('missing-file', `${path} does not exist in ${p.dir}. Write the file first, then index it.`, { path });
  if (project !== undefined) mkdirSync(join(p.data, 'index'), { recursive: true });
  const text = existsSync(target) ? readFileSync(target, 'utf8') : project === undefined ? '# Index\n\n' : `# Index of ${project}\n\n`;
  const lines = text.split('\n');
  const at = lines.findIndex((l) => ENTRY.exec(l)?.[1] === path);
  const added = at >= 0 ? ENTRY.exec(lines[at]!)![3]! : today;
  const line = `- \`${path}\` - ${summary} (added ${added})`;
  if (at >= 0) lines[at] = line;
  else {
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    // A heading keeps its blank line under it (Markdown reads a list glued to it the same, people less so).
    if (lines.at(-1)?.startsWith('#')) lines.push('');
    lines.push(line, '');
  }
  writeWhole(target, lines.join('\n'));
  return { path, summary, added, updated: at >= 0, index: relative(p.dir, target).split(sep).join('/') };
}

/** Drops one path's line from an index; a path it does not list is a usage error naming the index. */
export function removeIndexEntry(p: WorkspacePaths, file: string, project?: string): { path: string; index: string } {
  const path = dataPath(p, file);
  const target = indexFile(p, project);
  const lines = existsSync(target) ? readFileSync(target, 'utf8').split('\n') : [];
  const kept = lines.filter((l) => ENTRY.exec(l)?.[1] !== path);
  const index = relative(p.dir, target).split(sep).join('/');
  if (kept.length === lines.length) throw new UsageError('not-indexed', `${path} is not listed in ${index}; nothing was changed (hand index check lists what each index holds).`, { path, index });
  writeWhole(target, kept.join('\n'));
  return { path, index };
}

/** The standing files (done-/rules-<project>.md): dispatch attaches them by rote, so they are never drift. */
const STANDING = /^data\/(done|rules)-[^/]+\.md$/;

/** Files that derive from something listed, or are attached by rote, and so are never drift. */
function excluded(rel: string): boolean {
  return rel === 'data/index.md' || STANDING.test(rel) || rel.endsWith('.html') || rel.split('/').includes('read-first') || rel.startsWith('data/index/');
}

function walk(dir: string, base: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) walk(full, base, out);
    else if (e.isFile() || statSync(full).isFile()) out.push(`data/${relative(base, full).split(sep).join('/')}`);
  }
}

export interface IndexDrift {
  index: string;
  /** Every index read: data/index.md and each project's (workspace-relative). */
  indexes: string[];
  indexed: number;
  unindexed: string[];
  stale: string[];
  /** Each STALE entry with the index that lists it (a path may be stale in two). */
  staleIn: { path: string; index: string }[];
  /** With --prune: the STALE lines dropped (then `stale` is what remains: none). */
  pruned?: { path: string; index: string }[];
}

export function indexDrift(p: WorkspacePaths, opts: { prune?: boolean } = {}): IndexDrift {
  const files = indexFiles(p);
  const rel = (f: string) => relative(p.dir, f).split(sep).join('/');
  const byFile = files.map((f) => ({ file: f, entries: readIndexFile(p, f) }));
  const listed = new Set(byFile.flatMap((b) => b.entries.map((e) => e.path)));
  let staleIn = byFile.flatMap((b) => b.entries.filter((e) => !e.exists).map((e) => ({ path: e.path, index: rel(b.file) })));
  let pruned: IndexDrift['pruned'];
  if (opts.prune && staleIn.length) {
    for (const b of byFile) {
      const gone = new Set(b.entries.filter((e) => !e.exists).map((e) => e.path));
      if (gone.size === 0) continue;
      writeWhole(b.file, readFileSync(b.file, 'utf8').split('\n').filter((l) => !gone.has(ENTRY.exec(l)?.[1] ?? '')).join('\n'));
    }
    pruned = staleIn;
    staleIn = [];
  }
  const data: string[] = [];
  if (existsSync(p.data)) walk(p.data, p.data, data);
  return {
    index: p.index,
    indexes: files.map(rel),
    indexed: listed.size,
    unindexed: data.filter((f) => !excluded(f) && !listed.has(f)).sort(),
    stale: [...new Set(staleIn.map((s) => s.path))],
    staleIn,
    ...(pruned ? { pruned } : {}),
  };
}
