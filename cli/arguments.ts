/**
 * Checks of the values people type, done before anything is started or created; each refusal
 * names the flag and shows a value that works.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../contract/errors.ts';

/** The text of a --brief file for a backlog item (CLI and MCP alike); unreadable is usage, naming the file. */
export function briefFileText(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (err) {
    throw new UsageError('bad-brief', `cannot read --brief ${file}: ${(err as Error).message}`);
  }
}

/** A path argument: never empty (resolve('') silently means the current directory). */
export function pathArg(value: string, what: string, example: string): string {
  if (value.trim() === '') throw new UsageError('empty-path', `${what} is empty; an empty path would mean the current directory. Pass the path itself, e.g. ${example}.`, { what });
  return resolve(value);
}

/** A count of lines: a whole number of at least 1 (parseInt would take "5abc" and ignore "abc"). */
export function lineCount(value: string, flag: string): number {
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1) {
    throw new UsageError('bad-line-count', `${flag} ${JSON.stringify(value)} is not a number of lines. Give a whole number of at least 1, e.g. ${flag} 50.`, { flag, value });
  }
  return Number(value);
}
