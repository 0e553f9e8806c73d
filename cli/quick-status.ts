/**
 * `hand status --json` without commander or the command table (issue 26): the command a Hand or
 * a script runs most often, so its start is Node's own plus one socket round trip. bin/hand.js
 * takes this path only for exactly `status --json` (with `--home <dir>` at most); the answer
 * is the same rows, printed the same way, as the full program's (cli/commands/status.ts). Any
 * failure — no daemon that answers, a refusal — returns false and the full program runs the
 * same read again, so every error is said and exit-coded in one place only.
 */
import { resolveHome } from '../contract/home.ts';
import { ensureHome } from '../io/fs/ensure-home.ts';
import { call } from './client.ts';

/** The home named by `argv` (process.argv minus node and the script) when it is `status --json` and nothing else; undefined otherwise. */
export function quickStatusHome(argv: readonly string[]): { home: string | undefined } | undefined {
  const rest = [...argv];
  let home: string | undefined;
  const at = rest.indexOf('--home');
  if (at >= 0) {
    home = rest[at + 1];
    if (home === undefined || home.startsWith('-')) return undefined;
    rest.splice(at, 2);
  }
  rest.sort();
  return rest.length === 2 && rest[0] === '--json' && rest[1] === 'status' ? { home } : undefined;
}

/** Prints the rows and returns true, or returns false having printed nothing. */
export async function quickStatus(home: string | undefined): Promise<boolean> {
  try {
    const rows = await call(ensureHome(resolveHome(home, process.env)), 'status', { id: undefined });
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return true;
  } catch {
    return false;
  }
}
