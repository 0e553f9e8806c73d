/**
 * `hand watch [--needs-you]`: a stream, one line per event (and with --json one object per
 * line). `--needs-you` is the Hand's wake: what already waits on the person first, then each new
 * need across the fleet. Run it under Claude Code's Monitor: every printed line reaches the
 * session as a notification, so the Hand stays free to talk while the fleet runs. It exits 0 at
 * its bound and when the daemon stops (the Monitor re-arms it); `hand wait` is for one worker.
 */
import type { Command } from 'commander';
import { DaemonUnreachableError } from '../../contract/errors.ts';
import { call } from '../client.ts';
import { parseDuration } from '../durations.ts';
import { printText } from '../output.ts';
import { cliErr, cliOut } from '../io.ts';
import type { CommandContext } from './context.ts';

import type { WatchProgress } from '../../contract/methods.ts';

export function registerWatch(program: Command, { paths, json }: CommandContext): void {
  program
    .command('watch')
    .description('stream the fleet: one line per change, or with --needs-you one line per event that needs the person (for Claude Code\'s Monitor)')
    .option('--needs-you', 'only what needs the person: blocked (question quoted), a gate, a parked decision, stalled, unreadable, disputed, an error, a crash, a landing, a base branch moved outside a landing, a note the person wrote on a worker\'s review page')
    .option('--timeout <duration>', 'stop after this long (exit 0)', '24h')
    .action(async (o: { needsYou?: boolean; timeout: string }, cmd: Command) => {
      const timeoutMs = parseDuration(o.timeout, '--timeout');
      const asJson = json(cmd);
      const line = (p: WatchProgress) => {
        if (asJson) cliOut().write(`${JSON.stringify(p)}\n`);
        else if ('need' in p) printText(cliOut(), `${p.line}\n`);
        else printText(cliOut(), `${p.id} ${p.stage} (${p.condition}) · ${p.lastActivity ?? ''}\n`);
      };
      try {
        await call(paths(cmd), 'watch', { timeoutMs, needsYou: o.needsYou === true }, { onProgress: line });
      } catch (err) {
        // The daemon went away (stopped, restarted): the stream ends cleanly and its runner re-arms it.
        if (err instanceof DaemonUnreachableError && /closed the connection|lost the connection/.test(err.message)) {
          if (!asJson) printText(cliErr(), 'hand watch: the daemon stopped; run hand watch again to go on\n');
          return;
        }
        throw err;
      }
    });
}
