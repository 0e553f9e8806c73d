/** `hand logs [-f]`: the daemon's pino log, made readable. Reads the file; needs no daemon. */
import { existsSync, openSync, readSync, statSync, watch, closeSync } from 'node:fs';
import type { Command } from 'commander';
import { RefusedError } from '../../contract/errors.ts';
import { lineCount } from '../arguments.ts';
import { printText } from '../output.ts';
import { cliOut } from '../io.ts';
import type { CommandContext } from './context.ts';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

export function formatLogLine(line: string): string {
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, pid: _pid, hostname: _host, ...rest } = obj;
  const when = typeof time === 'number' ? new Date(time).toISOString().replace('T', ' ').slice(0, 23) : '';
  const extras = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${when} ${(LEVELS[level as number] ?? String(level)).padEnd(5)} ${String(msg ?? '')}${extras ? `  ${extras}` : ''}`;
}

export async function showLogs(logPath: string, opts: { follow?: boolean; lines?: number; json?: boolean }, out: (s: string) => void): Promise<void> {
  if (!existsSync(logPath)) {
    throw new RefusedError('no-log', `no daemon log at ${logPath} yet. It appears once the daemon has started (any hand command starts it).`, { path: logPath });
  }
  let offset = 0;
  let pending = '';
  const readNew = () => {
    const size = statSync(logPath).size;
    if (size < offset) offset = 0; // truncated or rotated
    if (size === offset) return;
    const fd = openSync(logPath, 'r');
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    closeSync(fd);
    offset = size;
    pending += buf.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    return parts.filter((l) => l.trim());
  };
  const first = readNew() ?? [];
  const shown = opts.lines ? first.slice(-opts.lines) : first;
  for (const l of shown) out(opts.json ? l : formatLogLine(l));
  if (!opts.follow) return;
  await new Promise<void>(() => {
    watch(logPath, () => {
      for (const l of readNew() ?? []) out(opts.json ? l : formatLogLine(l));
    });
  });
}

export function registerLogs(program: Command, ctx: CommandContext): void {
  program
    .command('logs')
    .description("show the daemon's log readably")
    .option('-f, --follow', 'keep printing new lines')
    .option('-n, --lines <n>', 'only the last n lines', (v) => lineCount(v, '--lines'))
    .action(async (o: { follow?: boolean; lines?: number }, cmd: Command) => {
      await showLogs(ctx.paths(cmd).log, { ...o, json: ctx.json(cmd) }, (s) => printText(cliOut(), `${s}\n`));
    });
}
