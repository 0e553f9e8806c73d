/**
 * Keys a person (or the machine) may press: exactly one per call (DESIGN.md principle 6).
 * Pure data shared by the machines, the terminal hosts and the CLI.
 */
export const KEY_NAMES = [
  'enter', 'escape', 'up', 'down', 'left', 'right', 'tab', 'btab', 'space', 'backspace', 'ctrl-c', 'ctrl-u',
] as const;
export type NamedKey = (typeof KEY_NAMES)[number];
/** A named key, or exactly one printable character. */
export type Key = NamedKey | { char: string };
