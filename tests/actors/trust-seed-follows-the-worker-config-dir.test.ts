/**
 * Rule: folder trust is seeded in the .claude.json the worker will read. Claude Code 2.1.332
 * reads $CLAUDE_CONFIG_DIR/.claude.json when that variable is set and then ignores
 * $HOME/.claude.json (checked with the real binary: trust seeded only under HOME showed the
 * dialog; seeded only under CLAUDE_CONFIG_DIR landed on the idle box). The worker's environment
 * is the dispatch caller's with `--env` additions winning.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRealPorts } from '../../actors/daemon/real-ports.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { intent } from './helpers/harness.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

function setup() {
  tmp = makeTempDir('trust-config-dir');
  const root = realpathSync(tmp.path);
  const dirs = { home: join(root, 'home'), config: join(root, 'config'), addedHome: join(root, 'added-home'), worktree: join(root, 'wt'), briefs: join(root, 'briefs') };
  for (const d of Object.values(dirs)) mkdirSync(d);
  for (const d of [dirs.home, dirs.config, dirs.addedHome]) writeFileSync(join(d, '.claude.json'), '{"hasCompletedOnboarding":true}\n');
  const w = intent('w1', { worktree: dirs.worktree, briefPath: join(dirs.briefs, 'brief.md'), reportPath: join(dirs.briefs, 'report.md') });
  return { dirs, w };
}
const trusted = (dir: string, worktree: string): boolean =>
  (JSON.parse(readFileSync(join(dir, '.claude.json'), 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> })
    .projects?.[worktree]?.hasTrustDialogAccepted === true;

describe('folder trust is seeded in the .claude.json the worker will read', () => {
  it('CLAUDE_CONFIG_DIR in the caller environment: trust goes there, not under HOME', async () => {
    const { dirs, w } = setup();
    const ports = createRealPorts({ fallbackEnv: {} });
    ports.rememberCallerEnv('w1', { HOME: dirs.home, CLAUDE_CONFIG_DIR: dirs.config });
    await ports.seedAgent(w, new AbortController().signal);
    expect(trusted(dirs.config, dirs.worktree)).toBe(true);
    expect(trusted(dirs.home, dirs.worktree)).toBe(false);
  });

  it('CLAUDE_CONFIG_DIR added with --env wins over the caller HOME', async () => {
    const { dirs, w } = setup();
    const ports = createRealPorts({ fallbackEnv: {} });
    ports.rememberCallerEnv('w1', { HOME: dirs.home }, { CLAUDE_CONFIG_DIR: dirs.config });
    await ports.seedAgent(w, new AbortController().signal);
    expect(trusted(dirs.config, dirs.worktree)).toBe(true);
    expect(trusted(dirs.home, dirs.worktree)).toBe(false);
  });

  it('without CLAUDE_CONFIG_DIR the HOME the worker is launched with (--env HOME wins) gets it', async () => {
    const { dirs, w } = setup();
    const ports = createRealPorts({ fallbackEnv: {} });
    ports.rememberCallerEnv('w1', { HOME: dirs.home }, { HOME: dirs.addedHome });
    await ports.seedAgent(w, new AbortController().signal);
    expect(trusted(dirs.addedHome, dirs.worktree)).toBe(true);
    expect(trusted(dirs.home, dirs.worktree)).toBe(false);
    expect(trusted(dirs.config, dirs.worktree)).toBe(false);
  });
});
