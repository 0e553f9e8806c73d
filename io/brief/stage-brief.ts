/**
 * The brief rules as one plan: everything is checked (section, read paths, standing files, index
 * rule) and the composed brief computed before a single file is written, so a refusal leaves
 * nothing behind. Writing the plan copies files first and the brief second (a brief never names
 * a copy that is not there), and reports what it created so a later failure can undo exactly that.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { copyFileAtomically, createFileAtomically } from '../fs/atomic-create.ts';
import { PRIVATE_DIR_MODE } from '../fs/private-files.ts';
import { join } from 'node:path';
import { keepBriefCopy } from './brief-copy.ts';
import { briefCopyPathOf, reportDirOf } from './worker-layout.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { composeBrief, copyPath, type Attachment } from './brief-compose.ts';
import { withDecisionConvention } from './decision-convention.ts';
import { withBrowserCheckConvention } from './browser-check-convention.ts';
import { parseBrief } from './brief-sections.ts';
import { indexRuleRefusal, readIndexFacts, type IndexFacts } from './index-rule.ts';
import { checkReadPath, validateReadPaths } from './read-paths.ts';
import { resolveStandingFiles, standingFilePath, type StandingKind } from './standing-files.ts';

export interface BriefPlan {
  /** The brief's own directory: what the worker reads (the daemon alone writes it). */
  briefDir: string;
  /** Where the worker writes (out/ in the brief directory, worker-layout.ts). */
  reportDir: string;
  briefPath: string;
  /** The daemon's own copy of the brief as dispatched (worker-layout.ts: <state>/briefs/<id>.md). */
  briefCopyPath: string;
  text: string;
  copies: { source: string; dest: string }[];
  staleCopies: string[];
  attachments: Attachment[];
  index: IndexFacts;
}

/**
 * The largest brief dispatch takes. A brief is read whole, composed and copied into the worker's
 * directory: a 50 MB brief was copied whole (issue 25 #5); what a worker must read beyond a brief
 * goes in as read-first files.
 */
export const MAX_BRIEF_BYTES = 1 << 20;

export function loadBriefText(path: string): { path: string; text: string } {
  const abs = checkReadPath(path, 'brief', '--brief');
  // the size first: an oversized brief is never read into memory
  const size = statSync(abs).size;
  if (size > MAX_BRIEF_BYTES) {
    throw new UsageError('brief-too-large', `brief ${abs} is ${size} bytes, over the maximum of ${MAX_BRIEF_BYTES} bytes (1 MiB); nothing was created. Keep the brief short and pass large material with --read-path.`, { path: abs, size, maxBytes: MAX_BRIEF_BYTES });
  }
  const bytes = readFileSync(abs);
  if (bytes.length === 0) throw new UsageError('empty-brief', `brief ${abs} is empty. Write what the worker should do into it.`, { path: abs });
  if (bytes.includes(0)) throw new UsageError('binary-brief', `brief ${abs} is not a text file. Pass a Markdown or text file.`, { path: abs });
  return { path: abs, text: bytes.toString('utf8') };
}

/** dataDir: the Hand workspace's data/ (index and standing files); null when there is no workspace. */
export function planBrief(args: { brief: string; readPaths: readonly string[]; dataDir: string | null; project: string; briefDir: string }): BriefPlan {
  const { path, text } = loadBriefText(args.brief);
  const shape = parseBrief(text);
  if (!shape.readFirst) {
    throw new RefusedError(
      'brief-no-read-first',
      `brief ${path} has no "## Read first" section (a heading inside a fenced code block does not count); nothing was created. ` +
        `Add the section naming the files the worker must read, or the line saying the index was checked and nothing applies.`,
      { path },
    );
  }
  const callerFiles = validateReadPaths(args.readPaths);
  const standing = args.dataDir === null ? [] : resolveStandingFiles(args.dataDir, args.project, callerFiles);
  // Files every brief gets by rote prove nothing about the index, even when passed by hand.
  const rote = new Set<string>();
  for (const kind of ['done', 'rules'] as const) {
    const p = args.dataDir === null ? null : standingFilePath(args.dataDir, args.project, kind);
    if (p && existsSync(p)) rote.add(realpathSync(p));
  }
  const index = readIndexFacts(args.dataDir, args.project);
  const refusal = indexRuleRefusal({ readFirstLines: shape.readFirst.lines, chosenReadFiles: callerFiles.filter((f) => !rote.has(f.source)).length, facts: index });
  if (refusal) throw refusal;

  const attachments: Attachment[] = [...callerFiles.map((f) => ({ kind: 'read' as const, ...f })), ...standing.map((s) => ({ kind: s.kind, source: s.source, leaf: s.leaf }))];
  const attachedLeaves = new Set(attachments.map((a) => a.leaf.toLowerCase()));
  const detached: StandingKind[] = (['done', 'rules'] as const).filter((k) => !standing.some((s) => s.kind === k) && !attachedLeaves.has(`${k}-${args.project}.md`.toLowerCase()));
  // A brief with browser checks is told how to run them (the tool and its own report directory).
  const withChecks = withBrowserCheckConvention(composeBrief(text, { briefDir: args.briefDir, project: args.project, attachments, detachedStanding: detached }), reportDirOf(args.briefDir));
  const composed = withDecisionConvention(withChecks);
  const briefPath = join(args.briefDir, 'brief.md');
  return {
    briefDir: args.briefDir,
    reportDir: reportDirOf(args.briefDir),
    briefPath,
    briefCopyPath: briefCopyPathOf(briefPath),
    text: composed,
    copies: attachments.map((a) => ({ source: a.source, dest: copyPath(args.briefDir, a.leaf) })),
    staleCopies: detached.map((k) => copyPath(args.briefDir, `${k}-${args.project}.md`)).filter((p) => existsSync(p)),
    attachments,
    index,
  };
}

/** Paths a write created (deepest last), so a failed dispatch can remove exactly those. */
export type Created = string[];

export function writeBriefPlan(plan: BriefPlan): Created {
  const created: Created = [];
  try {
    writeInto(plan, created);
  } catch (err) {
    undoBriefWrite(created);
    throw err;
  }
  return created;
}

function writeInto(plan: BriefPlan, created: Created): void {
  const readFirst = join(plan.briefDir, 'read-first');
  for (const dir of [plan.briefDir, readFirst, plan.reportDir]) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      created.push(dir);
      continue;
    }
    // A link here would put the brief (and the worker's grant) wherever it points.
    if (!st.isDirectory()) {
      throw new RefusedError('brief-dir-not-a-dir', `${dir} exists and is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; remove it and dispatch again.`, { dir });
    }
  }
  // Every file is made by atomic create: a link planted at its name is replaced, never written through.
  for (const c of plan.copies) {
    if (!existsSync(c.dest)) created.push(c.dest);
    copyFileAtomically(c.source, c.dest);
  }
  if (!existsSync(plan.briefCopyPath)) created.push(plan.briefCopyPath);
  keepBriefCopy(plan.briefPath, plan.text);
  if (!existsSync(plan.briefPath)) created.push(plan.briefPath);
  createFileAtomically(plan.briefPath, plan.text);
  // Add file before line, remove line before file: the brief never names a missing copy.
  for (const stale of plan.staleCopies) rmSync(stale, { force: true });
}

/** Removes what writeBriefPlan created, newest first; anything that was there before stays. */
export function undoBriefWrite(created: Created): void {
  for (const p of [...created].reverse()) rmSync(p, { recursive: true, force: true });
}
