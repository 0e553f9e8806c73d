/**
 * Reads `pr.base_branch` from `.no-mistakes.yaml` at a repository's root: the integration
 * branch the review gate also uses, so a worker is cut from the same place its work is judged
 * against. The reader is deliberately narrow (a YAML library would accept forms the review gate
 * reads differently): a top-level block `pr:` with `base_branch:` among its immediate children.
 * Anything it cannot read with certainty is refused rather than guessed.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { RemoteCommandError, runRemote } from '../ssh/run-remote.ts';
import { farTarget } from './git-place.ts';

export const NO_MISTAKES_FILE = '.no-mistakes.yaml';

export type DeclaredBaseBranch =
  | { kind: 'none' }
  | { kind: 'declared'; branch: string }
  | { kind: 'refused'; reason: string };

const NONE: DeclaredBaseBranch = { kind: 'none' };

/** Cuts a ` # comment` that is outside quotes (a '#' glued to a word is part of the value). */
function stripComment(s: string): string {
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!))) {
      return s.slice(0, i);
    }
  }
  return s;
}

/** An inline flow mapping after `pr:`: only a top-level `base_branch` key matters, and it is refused. */
function readFlowMapping(flow: string): DeclaredBaseBranch {
  const stack: string[] = [];
  let quote: string | null = null;
  let key = '';
  let collectingKey = false;
  let topLevelKeys: string[] = [];
  for (const c of flow) {
    if (quote) {
      if (c === quote) quote = null;
      if (collectingKey) key += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      if (collectingKey) key += c;
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      collectingKey = stack.length === 1 && c === '{';
      key = '';
      continue;
    }
    if (c === '}' || c === ']') {
      const open = stack.pop();
      if (open !== (c === '}' ? '{' : '[')) return unbalanced();
      if (collectingKey && key.trim()) topLevelKeys.push(key);
      collectingKey = false;
      continue;
    }
    if (stack.length === 1 && stack[0] === '{') {
      if (c === ',') {
        if (collectingKey && key.trim()) topLevelKeys.push(key);
        collectingKey = true;
        key = '';
      } else if (c === ':' && collectingKey) {
        topLevelKeys.push(key);
        collectingKey = false;
      } else if (collectingKey) {
        key += c;
      }
    }
  }
  if (stack.length !== 0 || quote) return unbalanced();
  topLevelKeys = topLevelKeys.map((k) => k.trim().replace(/^(["'])(.*)\1$/, '$2'));
  if (topLevelKeys.includes('base_branch')) {
    return {
      kind: 'refused',
      reason: `${NO_MISTAKES_FILE} declares pr.base_branch in an inline mapping ('pr: ${flow}'); write it in block form:\npr:\n  base_branch: <branch>`,
    };
  }
  return NONE;
}

function unbalanced(): DeclaredBaseBranch {
  return { kind: 'refused', reason: `${NO_MISTAKES_FILE} has an inline 'pr:' mapping whose brackets do not balance on its line; fix the YAML.` };
}

/** The value of a `base_branch:` line: quoted values take what is between the quotes. */
function readScalar(raw: string): DeclaredBaseBranch {
  const v = raw.trim();
  const q = v[0];
  if (q === '"' || q === "'") {
    const end = v.indexOf(q, 1);
    if (end < 0) return { kind: 'refused', reason: `${NO_MISTAKES_FILE}: pr.base_branch has an unclosed quote (${v}); fix the YAML.` };
    const inner = v.slice(1, end);
    return inner ? { kind: 'declared', branch: inner } : NONE;
  }
  const unquoted = stripComment(v).trim();
  if (unquoted === '' || unquoted === '~' || unquoted === 'null') return NONE;
  return { kind: 'declared', branch: unquoted };
}

export function parseDeclaredBaseBranch(text: string): DeclaredBaseBranch {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const at = lines.findIndex((l) => /^pr\s*:/.test(l));
  if (at < 0) return NONE;
  const inline = stripComment(lines[at]!.replace(/^pr\s*:/, '')).trim();
  if (inline !== '') return inline.startsWith('{') ? readFlowMapping(inline) : NONE;
  let childIndent: number | null = null;
  for (const line of lines.slice(at + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const indent = /^[ \t]*/.exec(line)![0].length;
    if (indent === 0) break; // the next top-level key ends the block
    childIndent ??= indent; // the first child fixes the indent of immediate children
    if (indent !== childIndent) continue;
    const m = /^\s*base_branch\s*:(.*)$/.exec(line);
    if (m) return readScalar(m[1]!);
  }
  return NONE;
}

/**
 * The declaration in `<repoRoot>/.no-mistakes.yaml`. A missing file is no declaration; a
 * directory there, or a file that cannot be read, is refused (unreadable is not absent).
 */
export function readDeclaredBaseBranch(repoRoot: string): { kind: 'none' } | { kind: 'declared'; branch: string } {
  const file = join(repoRoot, NO_MISTAKES_FILE);
  let text: string;
  try {
    if (statSync(file).isDirectory()) {
      throw new RefusedError('no-mistakes-config-unreadable', `${file} is a directory, not a file; remove or rename it so the integration branch can be read.`, { file });
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof RefusedError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw new RefusedError(
      'no-mistakes-config-unreadable',
      `${file} exists but cannot be read (${(err as Error).message}); fix its permissions so the declared integration branch can be honoured.`,
      { file },
    );
  }
  const parsed = parseDeclaredBaseBranch(text);
  if (parsed.kind === 'refused') throw new UsageError('no-mistakes-config-invalid', `${file}: ${parsed.reason}`, { file });
  return parsed;
}

/** $1 = file: exit 3 when absent, 4 when a directory; else its bytes. */
const READ_THERE = 'test -e "$1" || exit 3; test -d "$1" && exit 4; cat -- "$1"';

/**
 * The declaration where git runs (git-place.ts): a far worker's base is its far checkout's
 * declared branch, read there over the host's ssh master, with the same refusals as here. An ssh
 * failure is thrown (could not tell), never read as "no declaration".
 */
export async function readDeclaredBaseBranchThere(repoRoot: string): Promise<{ kind: 'none' } | { kind: 'declared'; branch: string }> {
  const far = farTarget();
  if (!far) return readDeclaredBaseBranch(repoRoot);
  const file = `${repoRoot.replace(/\/+$/, '')}/${NO_MISTAKES_FILE}`;
  const where = `${far.user}@${far.address}:${file}`;
  let text: string;
  try {
    text = await runRemote(far, ['sh', '-c', READ_THERE, 'sh', file]);
  } catch (err) {
    const e = err instanceof RemoteCommandError ? err : null;
    if (e && !e.unreachable && e.exitCode === 3) return { kind: 'none' };
    if (e && !e.unreachable && e.exitCode === 4) {
      throw new RefusedError('no-mistakes-config-unreadable', `${where} is a directory, not a file; remove or rename it so the integration branch can be read.`, { file, host: far.address });
    }
    if (e && !e.unreachable) {
      throw new RefusedError('no-mistakes-config-unreadable', `${where} exists but cannot be read (${e.stderr.trim() || `exit ${e.exitCode}`}); fix its permissions so the declared integration branch can be honoured.`, { file, host: far.address });
    }
    throw new RefusedError('git-unavailable', `could not read ${where} (${(err as Error).message}); check that ssh to the host works (hand host check), then try again.`, { file, host: far.address });
  }
  const parsed = parseDeclaredBaseBranch(text);
  if (parsed.kind === 'refused') throw new UsageError('no-mistakes-config-invalid', `${where}: ${parsed.reason}`, { file, host: far.address });
  return parsed;
}
