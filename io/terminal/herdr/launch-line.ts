/**
 * What we type into a herdr pane's shell to start a program (herdr panes start a shell; its own
 * `agent start` types a shell-quoted command line the same way). Every argv element is single-
 * quoted for a POSIX shell, so nothing in it is ever interpreted.
 *
 * herdr reports no exit status for a pane's program (its `pane.exited` event carries only ids),
 * so the line ends by putting the status in the terminal title, which herdr does expose
 * (`terminal_title`): `kingshand-exit:<status>`. The shell stays, so the last screen stays too.
 * The leading space keeps the line out of shell history (HISTCONTROL=ignorespace).
 */
import { UsageError } from '../../errors.ts';

export const EXIT_TITLE_PREFIX = 'kingshand-exit:';

export function posixQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function launchLine(argv: readonly string[]): string {
  for (const arg of argv) {
    // Typed into a shell: a newline would submit half a line, an ESC would be read as a key.
    if (/[\x00-\x1f\x7f]/.test(arg)) {
      throw new UsageError('bad-pane-spec', `herdr cannot start an argv element holding a control character: ${JSON.stringify(arg)}`);
    }
  }
  return ` ${argv.map(posixQuote).join(' ')}; printf '\\033]2;${EXIT_TITLE_PREFIX}%s\\007' "$?"`;
}

/** The exit status our launch line left in the title, or null if the title is anything else. */
export function exitCodeFromTitle(title: unknown): number | null {
  if (typeof title !== 'string' || !title.startsWith(EXIT_TITLE_PREFIX)) return null;
  const digits = title.slice(EXIT_TITLE_PREFIX.length);
  return /^\d{1,3}$/.test(digits) ? Number(digits) : null;
}
