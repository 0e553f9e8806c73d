/**
 * The folder-trust check, as the real binary does it (reference claude-code.md §4): the dialog is
 * skipped only when `~/.claude.json` has `projects[<exact realpath of cwd>].hasTrustDialogAccepted`
 * set to true. A trusted parent does not cover a child folder. Any read or parse failure means
 * "not trusted", so the dialog shows — the safe direction.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

export function isFolderTrusted(home: string, cwd: string): boolean {
  let config: unknown;
  let path: string;
  try {
    path = realpathSync(cwd);
    config = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
  } catch {
    return false;
  }
  if (typeof config !== 'object' || config === null) return false;
  const projects = (config as { projects?: unknown }).projects;
  if (typeof projects !== 'object' || projects === null) return false;
  const entry = (projects as Record<string, unknown>)[path];
  return typeof entry === 'object' && entry !== null && (entry as { hasTrustDialogAccepted?: unknown }).hasTrustDialogAccepted === true;
}
