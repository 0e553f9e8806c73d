/**
 * How a program starts in a herdr pane. herdr panes start a shell, and a program is typed into
 * it (herdr's own `agent start` types a shell-quoted command line the same way).
 *
 * - Exactly spec.env: a pane's shell gets the herdr server's environment plus `--env`, and the
 *   server may have started days ago with whatever its starter had. So the program runs under
 *   the launcher of io/terminal/launch-env-file.ts, which sets exactly the environment from a
 *   0600 file (never as arguments), every word single-quoted for a POSIX shell.
 * - Nothing secret on screen, no line-length limit: that command is not typed. It travels in the
 *   pane's environment (`--env KINGSHAND_LAUNCH=…`) and the typed line is only
 *   ` eval "$KINGSHAND_LAUNCH"` — an echoed `env -i ANTHROPIC_API_KEY=…` would sit on the
 *   worker's screen and scrollback, and a tty in canonical mode cuts a typed line at 4 KB.
 *   The variable holds no secret: only the launcher, the file's path and argv.
 * - The exit status: herdr's `pane.exited` carries only ids, so the command ends by putting the
 *   status in the terminal title, which herdr exposes (`terminal_title`): `kingshand-exit:<n>`.
 *   The shell stays, so the last screen stays readable.
 * The leading space keeps the typed line out of shell history (HISTCONTROL=ignorespace).
 */
import { UsageError } from '../../../contract/errors.ts';

export const EXIT_TITLE_PREFIX = 'kingshand-exit:';
export const LAUNCH_VARIABLE = 'KINGSHAND_LAUNCH';
export const TYPED_LAUNCH = ` eval "$${LAUNCH_VARIABLE}"`;

export function posixQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Throws (bad input, exit 2) for an argv the pane's shell cannot be trusted to pass through. */
export function assertLaunchable(argv: readonly string[]): void {
  for (const arg of argv) {
    if (/[\x00-\x1f\x7f]/.test(arg)) {
      throw new UsageError('bad-pane-spec', `herdr cannot start an argv element holding a control character: ${JSON.stringify(arg)}`);
    }
  }
}

/**
 * The command KINGSHAND_LAUNCH holds: `launchArgv` (the launcher that sets exactly the worker's
 * environment from its file, io/terminal/launch-env-file.ts), then the exit title.
 */
export function launchCommand(launchArgv: readonly string[]): string {
  assertLaunchable(launchArgv);
  return `${launchArgv.map(posixQuote).join(' ')}; printf '\\033]2;${EXIT_TITLE_PREFIX}%s\\007' "$?"`;
}

/** The exit status our launch left in the title, or null if the title is anything else. */
export function exitCodeFromTitle(title: unknown): number | null {
  if (typeof title !== 'string' || !title.startsWith(EXIT_TITLE_PREFIX)) return null;
  const digits = title.slice(EXIT_TITLE_PREFIX.length);
  return /^\d{1,3}$/.test(digits) ? Number(digits) : null;
}
