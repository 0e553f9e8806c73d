/**
 * Rule: folder trust is seeded in the .claude.json the worker will read. Claude Code 2.1.332
 * reads $CLAUDE_CONFIG_DIR/.claude.json when that variable is set and then ignores
 * $HOME/.claude.json (checked with the real binary: trust seeded only under HOME showed the
 * dialog; seeded only under CLAUDE_CONFIG_DIR landed on the idle box). The worker's environment
 * is the dispatch caller's with `--env` additions winning.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRealPorts } from '../../io/ports/real-ports.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { intent } from './helpers/harness.ts';

const tempDir = useTempDirs();

function setup() {
  const root = realpathSync(tempDir('trust-config-dir'));
  const dirs = { home: join(root, 'home'), config: join(root, 'config'), addedHome: join(root, 'added-home'), worktree: join(root, 'wt'), briefs: join(root, 'briefs') };
  for (const d of Object.values(dirs)) mkdirSync(d);
  for (const d of [dirs.home, dirs.config, dirs.addedHome]) writeFileSync(join(d, '.claude.json'), '{"hasCompletedOnboarding":true}\n');
  const w = intent('w1', { worktree: dirs.worktree, briefPath: join(dirs.briefs, 'brief.md'), reportPath: join(dirs.briefs, 'report.md') });
  return { dirs, w };
}
const trusted = (dir: string, worktree: string): boolean =>
  (JSON.parse(readFileSync(join(dir, '.claude.json'), 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> })
    .projects?.[worktree]?.hasTrustDialogAccepted === true;

/** The config dirs a case names; each case's environment maps a variable to one of them. */
type Dir = 'home' | 'config' | 'addedHome';
const cases: Array<{ rule: string; caller: Record<string, Dir>; added?: Record<string, Dir>; trustedIn: Dir; notIn: Dir[] }> = [
  { rule: 'CLAUDE_CONFIG_DIR in the caller environment: trust goes there, not under HOME', caller: { HOME: 'home', CLAUDE_CONFIG_DIR: 'config' }, trustedIn: 'config', notIn: ['home'] },
  { rule: 'CLAUDE_CONFIG_DIR added with --env wins over the caller HOME', caller: { HOME: 'home' }, added: { CLAUDE_CONFIG_DIR: 'config' }, trustedIn: 'config', notIn: ['home'] },
  {
    rule: 'without CLAUDE_CONFIG_DIR the HOME the worker is launched with (--env HOME wins) gets it',
    caller: { HOME: 'home' }, added: { HOME: 'addedHome' }, trustedIn: 'addedHome', notIn: ['home', 'config'],
  },
];

describe('folder trust is seeded in the .claude.json the worker will read', () => {
  // One test per case, named by its rule (it.each's '$rule' would quote and cut the name).
  for (const { rule, caller, added, trustedIn, notIn } of cases) it(rule, async () => {
    const { dirs, w } = setup();
    const env = (named: Record<string, Dir>) => Object.fromEntries(Object.entries(named).map(([k, d]) => [k, dirs[d]]));
    const ports = createRealPorts({ fallbackEnv: {} });
    ports.rememberCallerEnv('w1', env(caller), added && env(added));
    await ports.seedAgent(w, new AbortController().signal);
    expect(trusted(dirs[trustedIn], dirs.worktree)).toBe(true);
    for (const d of notIn) expect(trusted(dirs[d], dirs.worktree)).toBe(false);
  });
});
