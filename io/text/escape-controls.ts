/**
 * Text printed to a person's terminal never carries terminal control. Paths, worker output,
 * log fields and error messages can hold raw ESC/BEL bytes (a folder named `\033]0;…\007`
 * retitles the terminal, `\033[2J` clears it); at the CLI output edge every C0 control but
 * newline and tab, DEL, and the C1 controls are shown as visible `\xNN` escapes instead.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
