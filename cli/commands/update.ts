/**
 * `hand update [--checkout <dir>]`: this kingshand checkout to its newest release, or a refusal
 * saying why and that nothing was touched (io/update/self-update.ts). The live-worker check asks
 * the daemon (started if need be, so a fleet that outlived its daemon is still seen); a daemon
 * that cannot be asked refuses. After an update the install runs (`npm ci`, `npm run build`) and,
 * when the Hand's kit changed, `hand init` rewrites the recorded workspace's kit with the new
 * binary. The running daemon keeps the old code until it is restarted: said, not done (stopping it
 * is the person's).
 */
import type { Command } from 'commander';
import { emit } from '../output.ts';
import type { CommandContext } from './context.ts';
import { KINGSHAND_ROOT } from '../../io/root.ts';
import { ops } from '../hand-ops.ts';
import { runArgv } from '../../io/process/run-argv.ts';
import { recordedWorkspace } from '../../io/workspace/recorded.ts';
import { cliEnv, setExitCode } from '../io.ts';
import type { UpdateResult } from '../../io/update/self-update.ts';

const INSTALL_MS = 10 * 60_000;

async function step(file: string, args: string[], cwd: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const r = await runArgv(file, args, { cwd, env: cliEnv(), timeoutMs: INSTALL_MS });
  if (r.exitCode === 0) return { ok: true };
  const tail = `${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-3).join(' / ');
  return { ok: false, error: `${[file, ...args].join(' ')} exited ${r.exitCode ?? 'without a code'}${tail ? `: ${tail}` : ''}` };
}

export function updateText(r: UpdateResult): string {
  if (r.status === 'refused') return `refused: ${r.reason}`;
  if (r.status === 'already-current') return `already current: ${r.fromVersion} (release ${r.tag})`;
  const shown = r.changes.slice(0, 5).map((c) => `  - ${c}`);
  return [
    `updated ${r.fromVersion} → ${r.toVersion} (release ${r.tag}, ${r.changes.length} change${r.changes.length === 1 ? '' : 's'}):`,
    ...shown,
    ...(r.changes.length > 5 ? [`  and ${r.changes.length - 5} more`] : []),
    r.installOk ? 'installed (npm ci, npm run build)' : `the update landed but the install did not finish: ${r.installError}`,
    ...(r.rereadNeeded ? ["the Hand's kit changed: a running Hand session should read CLAUDE.md again"] : []),
    'the daemon runs the old code until it restarts: hand daemon stop (no worker is live), and the next command starts the new one',
  ].join('\n');
}

export function registerUpdate(program: Command, ctx: CommandContext): void {
  program
    .command('update')
    .description('move this kingshand checkout to its newest release (vX.Y.Z on origin, fast-forward only); refused with the reason, touching nothing, on uncommitted changes, a live worker, a branch other than main, or no release')
    .option('--checkout <dir>', 'the kingshand checkout to update (default: the one this hand runs from)')
    .action(async (o: { checkout?: string }, cmd: Command) => {
      const paths = ctx.paths(cmd);
      const root = o.checkout ?? KINGSHAND_ROOT;
      const { selfUpdate } = await import('../../io/update/self-update.ts');
      const r = await selfUpdate(root, {
        liveWorkers: async () => {
          try {
            const rows = await ops.status(paths, {});
            return rows.filter((w) => w.live === true && w.condition !== 'gone').map((w) => w.id);
          } catch {
            return null;
          }
        },
        install: async (dir) => {
          const ci = await step('npm', ['ci', '--no-audit', '--no-fund'], dir);
          return ci.ok ? step('npm', ['run', 'build', '--if-present'], dir) : ci;
        },
        refreshKit: async (dir) => {
          const ws = recordedWorkspace(paths.home);
          return ws ? step(process.execPath, [`${dir}/bin/hand.js`, '--home', paths.home, 'init', ws], dir) : { ok: true };
        },
      });
      emit(ctx.json(cmd), r, () => updateText(r));
      if (!r.ok) setExitCode(1);
    });
}
