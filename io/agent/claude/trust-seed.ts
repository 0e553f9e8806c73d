/**
 * Folder trust written before launch, so a worker never stops on "Quick safety check … Is this a
 * project you trust?" (control-plane §2.6, claude-code.md §4). The grant is
 * `projects[<exact real path of the worktree>].hasTrustDialogAccepted = true`: a trusted parent
 * does not cover a child. The file is the person's own config, so:
 *  - it is never invented blindly: no file -> 'no-config', unless the caller asks for the
 *    minimal file (createMissing: dispatch decided so and says so, claude-json-plan.ts), which
 *    holds only onboarding done and this trust entry; a malformed one is refused, not rewritten;
 *  - every other key is kept, including keys that differ only in case (`/code` and `/Code`), which
 *    a case-insensitive map would merge;
 *  - an existing entry keeps its fields: Claude Code itself records a project with
 *    `hasTrustDialogAccepted: false` when the dialog was shown, and only the flag flips;
 *  - the write is atomic and checked (temp file, re-parse, key counts) before it replaces the file.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { RefusedError } from '../../../contract/errors.ts';
import { writeJsonAtomically } from './atomic-json.ts';
import { withClaudeConfigLock } from './config-lock.ts';

export type TrustSeedResult = 'seeded' | 'already' | 'no-config' | 'created';

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The key Claude Code looks up: the real path, with forward slashes on Windows, no trailing slash. */
export function trustKey(worktree: string): string {
  let real: string;
  try {
    real = realpathSync(worktree);
  } catch {
    throw new RefusedError('worktree-missing', `worktree ${worktree} does not exist; create it before seeding folder trust.`, { worktree });
  }
  const key = process.platform === 'win32' ? real.replace(/\\/g, '/') : real;
  return key.length > 1 ? key.replace(/\/+$/, '') : key;
}

function malformed(path: string, why: string): RefusedError {
  return new RefusedError('claude-config-malformed', `${path} ${why}; it was left untouched. Fix or move it aside, then dispatch again.`, { path });
}

export async function seedTrust(args: {
  claudeJsonPath: string;
  worktree: string;
  /** How long to wait for Claude Code's own lock on the file (default 15 s). */
  lockTimeoutMs?: number;
  /** Write the minimal file when there is none (its directory must exist). */
  createMissing?: boolean;
}): Promise<TrustSeedResult> {
  const key = trustKey(args.worktree);
  if (!existsSync(args.claudeJsonPath)) {
    if (!args.createMissing) return 'no-config';
    // A file that appeared meanwhile (Claude Code starting elsewhere) is seeded as any other.
    if ((await createMinimal(args.claudeJsonPath, key, args.lockTimeoutMs)) === 'created') return 'created';
  }
  // Write through a symlink (dotfile managers), never replace the link itself with a file.
  const target = realpathSync(args.claudeJsonPath);
  return withClaudeConfigLock(args.claudeJsonPath, (): TrustSeedResult => {
    let text: string;
    try {
      text = readFileSync(target, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'no-config';
      throw malformed(args.claudeJsonPath, `cannot be read (${(err as Error).message})`);
    }
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch (err) {
      throw malformed(args.claudeJsonPath, `is not valid JSON (${(err as Error).message})`);
    }
    if (!isObject(config)) throw malformed(args.claudeJsonPath, 'does not hold a JSON object');
    if (config.projects !== undefined && !isObject(config.projects)) throw malformed(args.claudeJsonPath, "has a 'projects' value that is not an object");
    const projects: JsonObject = (config.projects as JsonObject | undefined) ?? {};
    const entry = Object.hasOwn(projects, key) ? projects[key] : undefined;
    if (entry !== undefined && !isObject(entry)) throw malformed(args.claudeJsonPath, `has a non-object entry for ${key}`);
    if (entry?.hasTrustDialogAccepted === true) return 'already';

    // Expected shape after the edit, checked against the temp file before it replaces the original.
    const hadProjects = config.projects !== undefined;
    const topAfter = Object.keys(config).length + (hadProjects ? 0 : 1);
    const projectsAfter = Object.keys(projects).length + (entry ? 0 : 1);
    if (entry) entry.hasTrustDialogAccepted = true;
    else projects[key] = { hasTrustDialogAccepted: true };
    // A file without a projects map has simply never recorded one; adding it is what Claude Code does itself.
    if (!hadProjects) config.projects = projects;

    writeJsonAtomically(target, `${JSON.stringify(config, null, 2)}\n`, {
      mode: statSync(target).mode & 0o7777,
      verify(written) {
        const ok =
          isObject(written) &&
          Object.keys(written).length === topAfter &&
          isObject(written.projects) &&
          Object.keys(written.projects).length === projectsAfter &&
          isObject(written.projects[key]) &&
          (written.projects[key] as JsonObject).hasTrustDialogAccepted === true;
        if (!ok) throw new RefusedError('claude-config-verify-failed', `the rewritten ${args.claudeJsonPath} did not read back as expected; the original was kept unchanged.`);
      },
    });
    return 'seeded';
  }, { timeoutMs: args.lockTimeoutMs });
}

/** The minimal config (claude-code.md §4): onboarding done, this one trust entry. Never over a file that appeared meanwhile. */
async function createMinimal(path: string, key: string, lockTimeoutMs: number | undefined): Promise<'created' | 'appeared'> {
  return withClaudeConfigLock(path, (): 'created' | 'appeared' => {
    if (existsSync(path)) return 'appeared';
    const config = { hasCompletedOnboarding: true, projects: { [key]: { hasTrustDialogAccepted: true } } };
    writeJsonAtomically(path, `${JSON.stringify(config, null, 2)}\n`, {
      mode: 0o600,
      verify(written) {
        const ok = isObject(written) && written.hasCompletedOnboarding === true && isObject(written.projects) && isObject(written.projects[key]);
        if (!ok) throw new RefusedError('claude-config-verify-failed', `the new ${path} did not read back as expected; it was not written.`);
      },
    });
    return 'created';
  }, { timeoutMs: lockTimeoutMs });
}
