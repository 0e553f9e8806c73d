/**
 * `hand init [dir]`: makes or upgrades a Hand workspace. Kit files are rewritten from the
 * templates in hand/kit (an upgrade is a re-run); the person's files are created once and never
 * touched again. A directory holding anything else is refused unless the caller names it with
 * forceDir: a workspace dropped into a project would load our CLAUDE.md over theirs.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { KINGSHAND_ROOT } from '../root.ts';
import { isWorkspace, workspacePaths, DEFAULT_MEMORY_BUDGET, type WorkspacePaths } from './layout.ts';
import { handSettings, mcpRegistration, shellCommand } from './kit-settings.ts';

export const KIT_DIR = join(KINGSHAND_ROOT, 'hand', 'kit');
export const SKILLS = ['annex', 'muster', 'rally', 'survey', 'audience', 'afk', 'chronicle', 'herald', 'inquest', 'petition', 'statute', 'setup', 'update', 'vigil', 'parley', 'counsel', 'witness'] as const;

export interface InitOptions {
  dir: string;
  /** Accept a non-empty directory that is not a workspace yet. */
  forceDir?: boolean;
  /** The state directory named with --home at init, baked into the commands; null = $HAND_HOME or the default, at run time. */
  home: string | null;
  /** The state directory the deny rules protect (resolved now). */
  stateDir: string;
  node: string;
  handBin: string;
  version: string;
}

export type FileAction = 'created' | 'updated' | 'unchanged' | 'kept';

export interface InitResult {
  workspace: string;
  upgraded: boolean;
  files: { path: string; owner: 'kit' | 'person'; action: FileAction }[];
}

function template(name: string): string {
  return readFileSync(join(KIT_DIR, name), 'utf8');
}

/** Entries of a directory that say nothing about its use (a fresh clone of nothing, an editor's leftovers). */
const HARMLESS = new Set(['.DS_Store', '.git']);

function refuseForeign(p: WorkspacePaths, forceDir: boolean | undefined): void {
  if (!existsSync(p.dir)) return;
  if (!statSync(p.dir).isDirectory()) throw new UsageError('workspace-not-a-directory', `${p.dir} is a file. Name a directory for the Hand's workspace (hand init <dir>).`, { dir: p.dir });
  if (isWorkspace(p.dir) || forceDir) return;
  const foreign = readdirSync(p.dir).filter((e) => !HARMLESS.has(e));
  if (foreign.length > 0) {
    throw new RefusedError(
      'workspace-dir-not-empty',
      `${p.dir} already holds ${foreign.length} entr${foreign.length === 1 ? 'y' : 'ies'} (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}) and is not a Hand workspace. Pick an empty directory, or pass --force-dir to add the Hand's files here anyway (an existing CLAUDE.md, .mcp.json or .claude/settings.json would be replaced).`,
      { dir: p.dir, entries: foreign.slice(0, 10) },
    );
  }
}

export function initWorkspace(o: InitOptions): InitResult {
  const p = workspacePaths(o.dir);
  refuseForeign(p, o.forceDir);
  const upgraded = isWorkspace(p.dir);
  const files: InitResult['files'] = [];
  const hand = shellCommand([o.node, o.handBin, ...(o.home ? ['--home', o.home] : [])]);
  const fill = (text: string) => text.replaceAll('{{HAND}}', hand).replaceAll('{{WORKSPACE}}', p.dir);

  const kit = (path: string, content: string) => {
    const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const action: FileAction = before === null ? 'created' : before === content ? 'unchanged' : 'updated';
    if (action !== 'unchanged') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    files.push({ path: relative(p.dir, path), owner: 'kit', action });
  };
  const person = (path: string, content: string) => {
    const exists = existsSync(path);
    if (!exists) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    files.push({ path: relative(p.dir, path), owner: 'person', action: exists ? 'kept' : 'created' });
  };

  mkdirSync(p.dir, { recursive: true });
  kit(p.claudeMd, fill(template('CLAUDE.md')));
  for (const s of SKILLS) kit(join(p.skills, s, 'SKILL.md'), fill(template(join('skills', s, 'SKILL.md'))));
  kit(p.settings, `${JSON.stringify(handSettings({ node: o.node, handBin: o.handBin, home: o.home, stateDir: o.stateDir, workspace: p.dir }), null, 2)}\n`);
  kit(p.mcpJson, `${JSON.stringify(mcpRegistration(p.mcpJson, { node: o.node, handBin: o.handBin, home: o.home, workspace: p.dir }), null, 2)}\n`);

  person(p.instructions, template('instructions.template.md'));
  person(p.king, template('king.template.md'));
  person(p.learnings, template('learnings.template.md'));
  person(p.budget, `${DEFAULT_MEMORY_BUDGET}\n`);
  person(p.index, template('index.template.md'));
  // The marker last: a run cut short leaves no workspace that a re-run would treat as ours.
  kit(p.marker, `${JSON.stringify({ kit: o.version, node: o.node, handBin: o.handBin, home: o.home }, null, 2)}\n`);
  return { workspace: p.dir, upgraded, files };
}
