/**
 * The commands a Hand or a script runs most often, without commander or the command table
 * (issue 26: their start was commander and every chunk of the command table on top of Node's
 * own). bin/hand.js takes this path only for exactly these shapes, with `--home <dir>` at most:
 *
 * - `status --json`: the rows, printed as the full program prints them (cli/commands/status.ts).
 *   Any failure resolves null having printed nothing, and the full program runs the same read
 *   again, so every error is said and exit-coded in one place only.
 * - `backlog ready --json`: what can start now, the same way (a read, safe to ask twice).
 * - `wait <id> --json [--until <condition>] [--timeout <duration>]`: the same wait through the
 *   same `ops.wait` as cli/commands/wait.ts (with --json it draws no progress line), its report
 *   printed as the full program prints it, exit 0 when the condition was met and 1 when not. A
 *   wait cannot be run twice, so its errors are reported here by the same `reportError` the full
 *   program uses (a refusal, a bad --timeout: the same words, JSON and exit code).
 */
import { resolveHome } from '../contract/home.ts';
import { UNTILS } from '../contract/vocabulary.ts';
import { ensureHome } from '../io/fs/ensure-home.ts';
import { call } from './client.ts';
import { emit, reportError } from './output.ts';

export type QuickCommand = { kind: 'status' | 'backlog-ready'; home: string | undefined } | { kind: 'wait'; home: string | undefined; id: string; until: string | undefined; timeout: string | undefined };

/** `argv` (process.argv minus node and the script) when it is one of the shapes above; undefined otherwise. */
export function quickCommand(argv: readonly string[]): QuickCommand | undefined {
  const rest = [...argv];
  const take = (flag: string): string | undefined | null => {
    const at = rest.indexOf(flag);
    if (at < 0) return undefined;
    const value = rest[at + 1];
    if (value === undefined || value.startsWith('-') || rest.indexOf(flag, at + 1) >= 0) return null;
    rest.splice(at, 2);
    return value;
  };
  const home = take('--home');
  if (home === null) return undefined;
  const json = rest.indexOf('--json');
  if (json < 0 || rest.lastIndexOf('--json') !== json) return undefined;
  rest.splice(json, 1);
  if (rest.length === 1 && rest[0] === 'status') return { kind: 'status', home };
  if (rest.length === 2 && rest[0] === 'backlog' && rest[1] === 'ready') return { kind: 'backlog-ready', home };
  if (rest[0] !== 'wait') return undefined;
  const until = take('--until');
  const timeout = take('--timeout');
  if (until === null || timeout === null || (until !== undefined && !(UNTILS as readonly string[]).includes(until))) return undefined;
  if (rest.length !== 2 || rest[1]!.startsWith('-')) return undefined;
  return { kind: 'wait', home, id: rest[1]!, until, timeout };
}

const paths = (home: string | undefined) => ensureHome(resolveHome(home, process.env));
// The full program's own printer: the same JSON, on this process's stdout (no run of its own here).
const print = (value: unknown) => emit(true, value, () => '');

/**
 * Asks for the rows (or the ready items) and resolves with a printer for them, or with null
 * having printed nothing. Printing is the caller's step: bin/hand.js checks that this bundle is
 * current while the daemon answers, and prints only then (a read asked by a stale bundle is
 * dropped, and the sources answer it again).
 */
export function quickRead(c: Extract<QuickCommand, { kind: 'status' | 'backlog-ready' }>): Promise<(() => void) | null> {
  // Async so a home that cannot be made is a null too; the request is under way when this returns.
  const asked = (async () => (c.kind === 'status' ? call(paths(c.home), 'status', { id: undefined }) : call(paths(c.home), 'backlog.ready')))();
  return asked.then(
    (value) => () => print(value),
    () => null,
  );
}

/** Waits, prints the report (or the error) and returns the exit code. */
export async function quickWait(c: Extract<QuickCommand, { kind: 'wait' }>): Promise<number> {
  try {
    // Loaded here, not above: the reads need none of it (each module file is a share of a start).
    const { ops } = await import('./hand-ops.ts');
    const r = await ops.wait(paths(c.home), { id: c.id, until: c.until, timeout: c.timeout });
    print(r);
    return r.met ? 0 : 1;
  } catch (err) {
    return reportError(err, true);
  }
}
