/**
 * Checks of the values people type, done before anything is started or created; each refusal
 * names the flag and shows a value that works.
 */
import { resolve } from 'node:path';
import { UsageError } from '../contract/errors.ts';

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
