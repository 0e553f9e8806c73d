/**
 * `hand wait <id>`: block until the worker settles, blocks, stalls or exits (an event, not a poll).
 */
import { Option, type Command } from 'commander';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import { escapeControls } from '../../io/text/escape-controls.ts';
import { cliErr, setExitCode } from '../io.ts';
import type { CommandContext } from './context.ts';
import type { DialogReading } from '../../contract/screen-reading.ts';

/** A blocked wait names the options (their labels quoted by the daemon) and the call that answers them (the person's choice only). */
const dialogLine = (id: string, d: DialogReading | null | undefined): string =>
  d?.options.length ? `\n  options: ${d.options.map((o) => `${o.n}. ${o.label}`).join(' | ')}\n  answer with the person's choice: hand answer ${id} <n> --fingerprint ${d.fingerprint}` : '';

export function registerWait(program: Command, ctx: CommandContext): void {
  program
    .command('wait')
    .description('block until the worker settles (turn ended and its report looked at: done, parked or settled), blocks, stalls or exits (an event, not a poll)')
    .argument('<id>', 'worker id')
    .addOption(new Option('--until <condition>', 'condition that counts as success').choices(['settled', 'blocked', 'stalled', 'exited', 'any']).default('any'))
    .option('--timeout <duration>', 'give up after this long', '30m')
    .action(async (id: string, o: { until: string; timeout: string }, cmd: Command) => {
      const live = cliErr().isTTY && !ctx.json(cmd);
      const started = Date.now();
      const r = await ops.wait(ctx.paths(cmd), { id, until: o.until, timeout: o.timeout }, (p) => {
        if (!live) return;
        const line = `⧗ ${id} ${p.stage} (${p.state}) ${Math.round((Date.now() - started) / 1000)}s · ${p.lastActivity}`;
        cliErr().write(`\r\x1b[2K${escapeControls(line).slice(0, (cliErr().columns || 100) - 1)}`);
      });
      if (live) cliErr().write('\r\x1b[2K');
      emit(ctx.json(cmd), r, () => `${id}: ${r.reason}${r.met ? '' : ` (waited for ${o.until})`} · state ${r.state}${r.blockedReason ? ` (${r.blockedReason})` : ''} · box ${JSON.stringify(r.promptBox)} · ${r.readable ? 'readable' : `UNREADABLE${r.couldNotTell ? ` (${r.couldNotTell})` : ''}`}\n  ${r.question ? `asks — ${r.question}` : r.lastActivity}${dialogLine(id, r.dialog)}`);
      setExitCode(r.met ? 0 : 1);
    });
}
