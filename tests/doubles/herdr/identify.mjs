// Which agent owns a pane (reference §2.1 step 1): herdr looks at the terminal's foreground
// process group and names the agent from argv0 / argv, unwrapping node/bun/python and shell -c
// wrappers; HERDR_AGENT=<agent> on the process forces the choice. Linux /proc only.
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

export const AGENT_KINDS = [
  'pi', 'claude', 'codex', 'gemini', 'cursor', 'devin', 'agy', 'cline', 'omp', 'mastracode', 'opencode', 'copilot',
  'kimi', 'kiro', 'droid', 'amp', 'grok', 'hermes', 'kilo', 'qodercli', 'qwen', 'maki',
];
const ALIASES = { 'claude-code': 'claude' };
const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'python', 'python3']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The terminal's foreground process group id, seen from the pane's shell (field 8 of stat). */
export function foregroundGroup(shellPid) {
  const stat = read(`/proc/${shellPid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tpgid = Number(fields[5]);
  return tpgid > 0 ? tpgid : null;
}

function kindOf(name) {
  const stem = basename(name).replace(/\.(c|m)?js$|\.py$/, '');
  const kind = ALIASES[stem] ?? stem;
  return AGENT_KINDS.includes(kind) ? kind : null;
}

function kindFromArgv(argv) {
  if (argv.length === 0) return null;
  const head = basename(argv[0]);
  if (INTERPRETERS.has(head)) {
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    return script ? kindFromArgv([script, ...argv.slice(argv.indexOf(script) + 1)]) : null;
  }
  if (SHELLS.has(head)) {
    const c = argv.indexOf('-c');
    return c >= 0 && argv[c + 1] ? kindFromArgv(argv[c + 1].trim().split(/\s+/)) : null;
  }
  return kindOf(head);
}

/**
 * The agent in the foreground of the pane whose shell is `shellPid`:
 * { kind, pid } or null when the shell itself owns the terminal or nothing is recognised.
 */
export function identify(shellPid) {
  const pgid = foregroundGroup(shellPid);
  if (!pgid || pgid === shellPid) return null;
  const cmdline = read(`/proc/${pgid}/cmdline`);
  if (cmdline === null) return null;
  const environ = read(`/proc/${pgid}/environ`) ?? '';
  const hint = environ.split('\0').find((e) => e.startsWith('HERDR_AGENT='))?.slice('HERDR_AGENT='.length);
  const kind = (hint && (ALIASES[hint] ?? hint)) || kindFromArgv(cmdline.split('\0').filter(Boolean));
  return kind ? { kind, pid: pgid } : null;
}

/**
 * Minor page faults of the shell's waited-for children (field 10 of stat, `cminflt`): it grows
 * when the shell reaps a command it ran, so a command that came and went between two looks
 * still leaves a trace. 0 when the shell is gone.
 */
export function reapedChildFaults(shellPid) {
  const stat = read(`/proc/${shellPid}/stat`);
  if (!stat) return 0;
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[8]) || 0;
}

/** True when the pane's shell owns the foreground (an idle interactive shell). */
export function shellOwnsForeground(shellPid) {
  return foregroundGroup(shellPid) === shellPid;
}

/**
 * True while some process of group `pgid` still runs. A zombie does not count: it has exited and
 * only waits to be reaped by whoever adopted it (in a container that can be a PID 1 that reaps
 * lazily, and `kill(-pgid, 0)` still succeeds on a group of zombies).
 */
export function groupHasLiveMember(pgid) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    if (!stat) continue;
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
