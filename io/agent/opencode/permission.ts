/**
 * What each kingshand permission posture means to OpenCode (1.17.19, 1.18.33): its `permission`
 * rules, given in OPENCODE_PERMISSION, which OpenCode merges over every config file — the
 * person's, the repository's `opencode.json` and OPENCODE_CONFIG_CONTENT — so a repository cannot
 * widen a worker's posture for the keys named here. Measured against the binaries:
 *  - rules are evaluated last-match-wins over the flattened list (`findLast`), each key of the
 *    object in order, so only named keys are set (never `"*"`: a key the person's config already
 *    had keeps its earlier place, and a later `"*"` would override it);
 *  - `read` and `external_directory` patterns are absolute paths, `edit` patterns are relative to
 *    the worktree (an absolute edit pattern never matched); `*` crosses `/`;
 *  - every file outside the worktree is also an `external_directory` question (default `ask`).
 * The postures:
 *   off   — nothing asks: commands, edits and the web run; a path outside the worktree is
 *           refused, except the worker's brief and report directories; the deny list applies;
 *   edits — edits run, commands and the web ask, a path outside the worker's own asks;
 *   ask   — edits, commands and the web ask; reads do not (as Claude Code's manual mode).
 * The deny list (every posture): the person's credentials and the other agents' homes, kingshand's
 * state directory (but the worker's own brief directory in it), and the daemon's files in the
 * brief directory (brief, read-first copies, marks), which a worker reads and never writes.
 */
import { join, relative } from 'node:path';
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import { HOME_AGENT_PLACES, HOME_CREDENTIALS } from '../../sandbox/secret-places.ts';
import { DAEMON_FILES_IN_BRIEF_DIR } from '../claude/permissions.ts';

type Action = 'allow' | 'ask' | 'deny';
/** One permission key: an action for every pattern, or patterns in order (the last match wins). */
export type OpencodeRule = Action | Record<string, Action>;
export type OpencodePermission = Record<string, OpencodeRule>;

/** The worker's places (absent for a launch of no worker: the posture's actions alone, no path named). */
export interface OpencodePlaces {
  worktree?: string;
  briefDir?: string;
  reportDir?: string;
  /** kingshand's state directory (absent: only the worker's own places are named). */
  stateDir?: string;
  /** The worker's HOME: its credentials are denied. */
  home?: string;
  /** Where OpenCode keeps its data for this launch (XDG_DATA_HOME or ~/.local/share): its own tool output there stays readable. */
  dataHome?: string;
}

const under = (dir: string): string => `${dir.replace(/\/+$/, '')}/*`;

/** Absolute places nothing of the worker's may read or write, each as itself and everything under it. */
function deniedPlaces(p: OpencodePlaces): string[] {
  const out: string[] = [];
  if (p.home) for (const rel of [...HOME_CREDENTIALS, ...HOME_AGENT_PLACES]) out.push(join(p.home, rel), under(join(p.home, rel)));
  if (p.stateDir) out.push(p.stateDir, under(p.stateDir));
  return out;
}

/**
 * The worker's own places outside the worktree: read (brief) and written (report), and OpenCode's
 * own tool output (a long result is saved there and read back), which its defaults allow.
 */
const ownPlaces = (p: OpencodePlaces): string[] => [p.briefDir, p.reportDir, p.dataHome && join(p.dataHome, 'opencode', 'tool-output')].filter((d): d is string => Boolean(d)).map(under);

/** Edit patterns are relative to the worktree: the daemon's files in the brief directory, the state directory. */
function editRules(p: OpencodePlaces, base: Action): Record<string, Action> {
  const rules: Record<string, Action> = { '*': base };
  const worktree = p.worktree;
  if (!worktree) return rules;
  const rel = (abs: string) => relative(worktree, abs) || '.';
  for (const abs of deniedPlaces(p)) rules[abs.endsWith('/*') ? `${rel(abs.slice(0, -2))}/*` : rel(abs)] = 'deny';
  if (p.briefDir) for (const f of DAEMON_FILES_IN_BRIEF_DIR) rules[rel(join(p.briefDir, f.replace(/\*\*$/, '*')))] = 'deny';
  // The report directory is inside the brief directory: written as the posture says, after the denials.
  if (p.reportDir) rules[`${rel(p.reportDir)}/*`] = base;
  return rules;
}

function readRules(p: OpencodePlaces, secrets: Action): Record<string, Action> {
  // OpenCode's own defaults for .env files, kept; under off a question would be a prompt, so they are refused.
  const rules: Record<string, Action> = { '*': 'allow', '*.env': secrets, '*.env.*': secrets, '*.env.example': 'allow' };
  for (const abs of deniedPlaces(p)) rules[abs] = 'deny';
  for (const own of ownPlaces(p)) rules[own] = 'allow';
  return rules;
}

function outsideRules(p: OpencodePlaces, base: Action): Record<string, Action> {
  const rules: Record<string, Action> = { '*': base };
  for (const abs of deniedPlaces(p)) rules[abs] = 'deny';
  for (const own of ownPlaces(p)) rules[own] = 'allow';
  return rules;
}

/** The `permission` object for one worker under `posture` (OPENCODE_PERMISSION's value). */
export function opencodePermission(posture: PermissionPosture, places: OpencodePlaces): OpencodePermission {
  const asks: Action = posture === 'off' ? 'allow' : 'ask';
  return {
    bash: asks,
    edit: editRules(places, posture === 'ask' ? 'ask' : 'allow'),
    webfetch: asks,
    websearch: asks,
    codesearch: asks,
    read: readRules(places, posture === 'off' ? 'deny' : 'ask'),
    external_directory: outsideRules(places, posture === 'off' ? 'deny' : 'ask'),
    // Its loop guard asks whether to go on; under off nothing may ask, so the loop is refused.
    doom_loop: posture === 'off' ? 'deny' : 'ask',
  };
}

/**
 * What a posture asks that OpenCode cannot do where kingshand's sandbox is not around it (a far
 * host): its rules bind its file tools, not what a shell command reaches. In kingshand's sandbox
 * the whole agent is fenced and there is no gap.
 */
export function opencodePostureGap(p: PermissionPosture): string | null {
  if (p !== 'off') return null;
  return "OpenCode under permissions off runs shell commands without kingshand's sandbox: its deny rules bind its file tools only, so a shell command can read what the worker's user can. Use --permissions edits (commands ask) where that matters.";
}
