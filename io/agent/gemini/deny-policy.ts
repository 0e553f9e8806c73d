/**
 * Gemini CLI's deny list: a policy file (its policy engine, TOML) loaded through the workspace
 * settings' `policyPaths`. Rules match a file tool's arguments as JSON (`argsPattern`), so they
 * bind the file tools only, and only for paths written out in full: like Claude Code's deny
 * rules, a shell command (`cat ~/.ssh/id_rsa`) is not stopped by them.
 * Denied: the person's credentials under the worker's home, kingshand's database and daemon
 * files (read and write), and writes to the standing files, every brief, instructions.md and
 * everything of the worker's own brief directory but its report directory (out/: issue 37).
 * The file lives in the worker's own brief directory, written on every seed (atomic create: a
 * link planted at its name is replaced, never written through).
 */
import { join } from 'node:path';
import { createFileAtomically } from '../../fs/atomic-create.ts';

/** Credentials under a home directory (Gemini CLI's own keys included). */
export const GEMINI_SECRET_PATHS = ['.ssh/', '.aws/', '.config/gcloud/', '.azure/', '.kube/', '.docker/config.json', '.netrc', '.git-credentials', '.gemini/oauth_creds.json', '.gemini/google_accounts.json'];

const READ_TOOLS = ['read_file', 'read_many_files', 'list_directory', 'glob', 'grep_search'];
const WRITE_TOOLS = ['write_file', 'replace'];

export const DENY_POLICY_FILE = 'gemini-deny-policy.toml';

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern matching any path argument that starts with `prefix` (an absolute path). */
function pathArg(prefix: string): string {
  return `"(?:file_path|dir_path|path|absolute_path)":"${escapeRegex(prefix)}`;
}

export interface DenyPolicyArgs {
  agentHome?: string | undefined;
  stateDir?: string | undefined;
  /** The worker's brief directory (read, never written) and its report directory inside it (written). */
  briefDir?: string | undefined;
  reportDir?: string | undefined;
}

function rule(tools: readonly string[], pattern: string, why: string): string {
  return [
    '[[rule]]',
    `toolName = ${JSON.stringify(tools)}`,
    `argsPattern = ${JSON.stringify(pattern)}`,
    'decision = "deny"',
    'priority = 900',
    `denyMessage = ${JSON.stringify(why)}`,
    '',
  ].join('\n');
}

/** The TOML text (pure). */
export function denyPolicyText(a: DenyPolicyArgs): string {
  const out = ['# Written by kingshand for one worker: what its file tools may not touch.', ''];
  if (a.agentHome) {
    const home = a.agentHome.replace(/\/+$/, '');
    for (const p of GEMINI_SECRET_PATHS) out.push(rule([...READ_TOOLS, ...WRITE_TOOLS], pathArg(`${home}/${p}`), `${p} holds the person's credentials; a worker never reads them.`));
  }
  if (a.stateDir) {
    const st = a.stateDir.replace(/\/+$/, '');
    for (const f of ['fleet.db', 'daemon.lock', 'daemon.log']) out.push(rule([...READ_TOOLS, ...WRITE_TOOLS], pathArg(`${st}/${f}`), "kingshand's own state is not the worker's."));
    out.push(rule(WRITE_TOOLS, pathArg(`${st}/data/`), 'Standing files are the Hand\'s.'));
    out.push(rule(WRITE_TOOLS, `${pathArg(`${st}/workers/`)}[^"/]+/brief\\.md"`, 'A brief is the Hand\'s; a worker writes only its report.'));
  }
  out.push(rule(WRITE_TOOLS, '"(?:file_path|path)":"[^"]*/instructions\\.md"', "instructions.md is the person's."));
  if (a.briefDir && a.reportDir && a.reportDir !== a.briefDir && a.reportDir.startsWith(`${a.briefDir.replace(/\/+$/, '')}/`)) {
    // Anything under the brief directory but not under its report directory (a lookahead: the
    // policy engine's patterns are JavaScript regular expressions).
    const brief = `${a.briefDir.replace(/\/+$/, '')}/`;
    const out_ = `${a.reportDir.replace(/\/+$/, '').slice(brief.length)}/`;
    out.push(rule(WRITE_TOOLS, `${pathArg(brief)}(?!${escapeRegex(out_)})`, "The brief directory is the daemon's; a worker writes only its report directory (out/)."));
  }
  return out.join('\n');
}

export function writeDenyPolicy(briefDir: string, a: DenyPolicyArgs): string {
  const file = join(briefDir, DENY_POLICY_FILE);
  createFileAtomically(file, denyPolicyText(a), { mode: 0o644 });
  return file;
}
