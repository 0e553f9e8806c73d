/**
 * The index rule (control-plane §2.2 step 10): when the data index or the project's index lists
 * anything, a brief must show that someone looked — a read-first file the caller chose (the
 * standing files are attached by rote and prove nothing), or one line in `## Read first` saying
 * the index was checked and nothing applies. Motivation: a settled spec sat unread in the index
 * and the work shipped without it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';

/** The literal line a brief can carry when nothing in the index applies. */
export const INDEX_CHECKED_LINE = '- Nothing beyond this brief - the index was checked and nothing in it applies.';

/** One index entry: "- `data/<path>` - <summary> (added YYYY-MM-DD)". Other lines are skipped. */
const ENTRY = /^\s*-\s+`([^`]+)`\s+-\s+\S/;

export function countIndexEntries(text: string): number {
  return indexedFiles(text).length;
}

/** The files an index lists, in its order: the refusal names them, so the caller knows what to read. */
export function indexedFiles(text: string): string[] {
  return text.split(/\r?\n/).flatMap((l) => {
    const m = ENTRY.exec(l);
    return m ? [m[1]!] : [];
  });
}

/** All three must match one line: the word index, a verb of looking, and a word of absence. */
const INDEX_WORD = /(?<![\w-])index(es)?(?![\w-])/i;
const LOOKED = /\b(check|checked|consulted|read|reviewed)\b/i;
const ABSENT = /\b(nothing|none|no entr(y|ies))\b/i;

export function statesIndexChecked(line: string): boolean {
  return INDEX_WORD.test(line) && LOOKED.test(line) && ABSENT.test(line);
}

export interface IndexFacts {
  root: { path: string; entries: number; files: string[] };
  project: { path: string; entries: number; files: string[] };
}

export function indexPaths(dataDir: string, project: string): { root: string; project: string } {
  return { root: join(dataDir, 'index.md'), project: join(dataDir, 'index', `${project}.md`) };
}

function entriesIn(path: string): { path: string; entries: number; files: string[] } {
  const files = existsSync(path) && statSync(path).isFile() ? indexedFiles(readFileSync(path, 'utf8')) : [];
  return { path, entries: files.length, files };
}

/** Both indexes of the workspace's data/ (the root one and the project's); none without a workspace. */
export function readIndexFacts(dataDir: string | null, project: string): IndexFacts {
  if (dataDir === null) return { root: { path: '', entries: 0, files: [] }, project: { path: '', entries: 0, files: [] } };
  const p = indexPaths(dataDir, project);
  return { root: entriesIn(p.root), project: entriesIn(p.project) };
}

/**
 * Pure decision: null when the rule is met, else the refusal. `chosenReadFiles` counts only the
 * caller's own read-first files, never the standing ones.
 */
export function indexRuleRefusal(args: { readFirstLines: readonly string[]; chosenReadFiles: number; facts: IndexFacts }): RefusedError | null {
  const { root, project } = args.facts;
  if (root.entries === 0 && project.entries === 0) return null;
  if (args.chosenReadFiles > 0) return null;
  if (args.readFirstLines.some(statesIndexChecked)) return null;
  const files = [...new Set([...root.files, ...project.files])];
  return new RefusedError(
    'index-not-consulted',
    `the index lists ${root.entries} file(s) in ${root.path} and ${project.entries} in ${project.path} (${files.join(', ')}), but the brief names none: nothing was created. ` +
      `Read both indexes, pass every file that applies with --read-path, or, if none applies, put this line under "## Read first": ${INDEX_CHECKED_LINE}`,
    { rootIndex: root, projectIndex: project, files, line: INDEX_CHECKED_LINE },
  );
}
