/**
 * A Hand workspace: the directory the person runs `claude` in to talk to the Hand. Its files
 * belong to one of two owners. The kit (CLAUDE.md, skills, settings, the MCP registration) is
 * ours and is rewritten by every `hand init`; the person's (instructions.md, memory/, data/) are
 * written once from a template and never touched again by the tool.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const WORKSPACE_MARKER = join('.hand', 'workspace.json');
export const DEFAULT_MEMORY_BUDGET = 7500;

export interface WorkspacePaths {
  dir: string;
  marker: string;
  claudeMd: string;
  settings: string;
  mcpJson: string;
  skills: string;
  instructions: string;
  memory: string;
  king: string;
  learnings: string;
  budget: string;
  data: string;
  index: string;
}

export function workspacePaths(dir: string): WorkspacePaths {
  const d = resolve(dir);
  return {
    dir: d,
    marker: join(d, WORKSPACE_MARKER),
    claudeMd: join(d, 'CLAUDE.md'),
    settings: join(d, '.claude', 'settings.json'),
    mcpJson: join(d, '.mcp.json'),
    skills: join(d, '.claude', 'skills'),
    instructions: join(d, 'instructions.md'),
    memory: join(d, 'memory'),
    king: join(d, 'memory', 'king.md'),
    learnings: join(d, 'memory', 'learnings.md'),
    budget: join(d, 'memory', 'budget'),
    data: join(d, 'data'),
    index: join(d, 'data', 'index.md'),
  };
}

export function defaultWorkspaceDir(): string {
  return join(homedir(), 'kingshand');
}

export function isWorkspace(dir: string): boolean {
  return existsSync(join(dir, WORKSPACE_MARKER));
}

/**
 * The workspace a command means: the one named, else the current directory when it is one,
 * else the default one when it exists; null when there is none.
 */
export function findWorkspace(named: string | undefined, cwd = process.cwd()): string | null {
  if (named) return resolve(named);
  if (isWorkspace(cwd)) return resolve(cwd);
  const fallback = defaultWorkspaceDir();
  return isWorkspace(fallback) ? fallback : null;
}
