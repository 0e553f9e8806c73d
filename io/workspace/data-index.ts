/**
 * data/index.md: one line per durable file under data/ (workflow §4.1-4.2, adapted to POSIX
 * paths): "- `data/<path>` - <summary> (added YYYY-MM-DD)". The summary is at most 160
 * characters after whitespace is collapsed; a longer one is refused, never cut (a cut summary
 * lies). Re-adding a path rewrites its line and keeps its date. Drift is measured, not fixed:
 * UNINDEXED files are listed nowhere, STALE entries name a file that is gone.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

export function readIndex(p: WorkspacePaths): IndexEntry[] {
  if (!existsSync(p.index)) return [];
  const out: IndexEntry[] = [];
  for (const line of readFileSync(p.index, 'utf8').split('\n')) {
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

export function addIndexEntry(p: WorkspacePaths, file: string, rawSummary: string, today = new Date().toISOString().slice(0, 10)): { path: string; summary: string; added: string; updated: boolean } {
  const path = dataPath(p, file);
  const summary = checkSummary(rawSummary);
  if (!existsSync(join(p.dir, path))) throw new UsageError('missing-file', `${path} does not exist in ${p.dir}. Write the file first, then index it.`, { path });
  const text = existsSync(p.index) ? readFileSync(p.index, 'utf8') : '# Index\n\n';
  const lines = text.split('\n');
  const at = lines.findIndex((l) => ENTRY.exec(l)?.[1] === path);
  const added = at >= 0 ? ENTRY.exec(lines[at]!)![3]! : today;
  const line = `- \`${path}\` - ${summary} (added ${added})`;
  if (at >= 0) lines[at] = line;
  else {
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    lines.push(line, '');
  }
  writeFileSync(p.index, lines.join('\n'));
  return { path, summary, added, updated: at >= 0 };
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
  indexed: number;
  unindexed: string[];
  stale: string[];
}

export function indexDrift(p: WorkspacePaths): IndexDrift {
  const entries = readIndex(p);
  const listed = new Set(entries.map((e) => e.path));
  const files: string[] = [];
  if (existsSync(p.data)) walk(p.data, p.data, files);
  return {
    index: p.index,
    indexed: entries.length,
    unindexed: files.filter((f) => !excluded(f) && !listed.has(f)).sort(),
    stale: entries.filter((e) => !e.exists).map((e) => e.path),
  };
}
