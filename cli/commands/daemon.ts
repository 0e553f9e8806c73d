/**
 * `hand daemon start|stop|status|restore-db|run`: the background daemon that hosts the fleet. `run`
 * (hidden) is what `start` launches; it loads the daemon itself only when it runs.
 */
import { type Command } from 'commander';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { daemonStatus, stopDaemon } from '../daemon-control.ts';
import type { CommandContext } from './context.ts';
import { storeLine } from '../store-line.ts';

export function registerDaemon(program: Command, ctx: CommandContext): void {
  const daemon = program.command('daemon').description('start, stop or inspect the background daemon that hosts the fleet');
  daemon
    .command('start')
    .description('start the daemon for this state directory (no-op when it runs)')
    .action(async (_o, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'ping');
      emit(ctx.json(cmd), r, () => `daemon running: pid ${r.pid}, home ${r.home}`);
    });
  daemon
    .command('stop')
    .description('stop the daemon; live tmux and herdr workers keep running (re-attached at the next start), and with none live the private tmux server stops too')
    .action(async (_o, cmd: Command) => {
      const r = await stopDaemon(ctx.daemonPaths(cmd));
      emit(ctx.json(cmd), r, () =>
        'signalled' in r
          ? `daemon ${r.pid} did not answer on its socket; sent ${r.signalled}, it stopped`
          : r.advice
            ? `daemon ${r.pid} stopping; ${r.advice}`
            : `daemon ${r.pid} stopping; no live workers, so its tmux server stops too`,
      );
    });
  daemon
    .command('status')
    .description('is the daemon running? pid, home, socket, uptime, workers')
    .action(async (_o, cmd: Command) => {
      const r = await daemonStatus(ctx.daemonPaths(cmd));
      emit(ctx.json(cmd), r, () => `running: pid ${r.pid} · up ${Math.round(r.uptimeMs / 1000)}s · ${r.workers} workers · ${r.socket}${storeLine(r.store, ctx.daemonPaths(cmd).home)}`);
    });
  daemon
    .command('restore-db')
    .description('put the newest database backup back (when the daemon refuses to start on a lost or damaged database)')
    .option('--from <file>', 'restore this backup instead of the newest in <home>/backups')
    .action(async (o: { from?: string }, cmd: Command) => {
      const { restoreDb, restoreDbText } = await import('./restore-db.ts');
      const r = restoreDb(ctx.paths(cmd), o.from);
      emit(ctx.json(cmd), r, () => restoreDbText(r));
    });
  daemon
    .command('run', { hidden: true })
    .description('run the daemon in the foreground (what `daemon start` launches)')
    .action(async (_o, cmd: Command) => {
      const { runDaemon } = await import('../../daemon/main.ts');
      await runDaemon(ctx.paths(cmd));
    });
}
