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
import type { HomePaths } from '../../contract/home.ts';
import { pulseLine, type PulseReading } from '../../contract/pulse-words.ts';

export function registerWatch(program: Command, { paths, json }: CommandContext): void {
  program
    .command('watch')
    .description('stream the fleet: one line per change, or with --needs-you one line per event that needs the person (for Claude Code\'s Monitor)')
    .option('--needs-you', 'only what needs the person: blocked (question quoted), a gate, a parked decision, stalled, unreadable, disputed, an error, a crash, a landing, a base branch moved outside a landing, a note the person wrote on a worker\'s review page')
    .option('--timeout <duration>', 'stop after this long (exit 0)', '24h')
    .option('--pulse <duration>', 'also, at this interval, one "pulse:" line when the fleet moved or usage crossed into another ten-point band (nothing when nothing changed)')
    .action(async (o: { needsYou?: boolean; timeout: string; pulse?: string }, cmd: Command) => {
      const timeoutMs = parseDuration(o.timeout, '--timeout');
      const pulseMs = o.pulse === undefined ? null : parseDuration(o.pulse, '--pulse');
      const asJson = json(cmd);
      const line = (p: WatchProgress) => {
        if (asJson) cliOut().write(`${JSON.stringify(p)}\n`);
        else if ('need' in p) printText(cliOut(), `${p.line}\n`);
        else printText(cliOut(), `${p.id} ${p.stage} (${p.condition}) · ${p.lastActivity ?? ''}\n`);
      };
      const pulse = pulseMs === null ? null : startPulse(paths(cmd), pulseMs, asJson);
      try {
        await call(paths(cmd), 'watch', { timeoutMs, needsYou: o.needsYou === true }, { onProgress: line });
      } catch (err) {
        // The daemon went away (stopped, restarted): the stream ends cleanly and its runner re-arms it.
        if (err instanceof DaemonUnreachableError && /closed the connection|lost the connection/.test(err.message)) {
          if (!asJson) printText(cliErr(), 'hand watch: the daemon stopped; run hand watch again to go on\n');
          return;
        }
        throw err;
      } finally {
        pulse?.stop();
      }
    });
}

/**
 * The pulse beside the stream: every interval the fleet's conditions and the usage window are read
 * (status and usage, the daemon's own answers) and a line is printed only when they changed
 * (contract/pulse-words.ts). A reading that fails is skipped, never printed as a change.
 */
function startPulse(home: HomePaths, everyMs: number, asJson: boolean): { stop(): void } {
  let before: PulseReading | null = null;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const [rows, usage] = await Promise.all([call(home, 'status', {}, { autostart: false }), call(home, 'usage', {}, { autostart: false })]);
      const fleet: Record<string, number> = {};
      for (const r of rows) if (r.condition !== 'gone') fleet[pulseWord(r)] = (fleet[pulseWord(r)] ?? 0) + 1;
      const now: PulseReading = { fleet, usage: usage.nearest ? { window: usage.nearest.window, percent: usage.nearest.percent } : null };
      const text = pulseLine(before, now);
      before = now;
      if (text) {
        if (asJson) cliOut().write(`${JSON.stringify({ pulse: true, line: text, fleet: now.fleet, usage: now.usage })}\n`);
        else printText(cliOut(), `${text}\n`);
      }
    } catch {
      // The daemon is between restarts, or usage could not be asked: the next tick reads again.
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The word a person reads for a live worker's row: done, blocked, working, at a gate, … */
function pulseWord(r: { condition: string; stage: string; gate: string | null }): string {
  if (r.gate) return 'at a gate';
  if (r.stage === 'done') return 'done';
  if (r.condition === 'busy') return 'working';
  return r.condition;
}
