/**
 * `hand doctor`: check the tools and the state directory, with the fix for each problem (./doctor.ts,
 * loaded when it runs). `--calibrate`: the daemon drives each installed agent CLI against a fake
 * model API and checks that kingshand reads every situation right (daemon/calibration/).
 */
import { Option, type Command } from 'commander';
import { emit } from '../output.ts';
import { cliEnv, cliErr, setExitCode } from '../io.ts';
import { resolveHome } from '../../contract/home.ts';
import { ops } from '../hand-ops.ts';
import { escapeControls } from '../../io/text/escape-controls.ts';
import type { CommandContext } from './context.ts';

export function registerDoctor(program: Command, ctx: CommandContext): void {
  program
    .command('doctor')
    .description('check node, git, tmux, agent binaries and the state directory; print the fix for each problem')
    .option('--calibrate', 'drive each installed agent CLI through the situations a worker meets, against a fake model API on 127.0.0.1, and check kingshand reads each one right (about a minute per agent; exits 1 when one is misread)')
    .addOption(new Option('--agent <agent>', 'with --calibrate: one agent, or all installed').choices(['claude', 'codex', 'gemini', 'opencode', 'qwen', 'all']).default('all'))
    .addOption(new Option('--backend <backend>', 'with --calibrate: the terminal host the agents run in (default tmux where installed)').choices(['tmux', 'pty']))
    .option('--auto', 'with --calibrate: only the agents whose installed version has not been calibrated yet')
    .action(async (o: { calibrate?: boolean; agent: string; backend?: string; auto?: boolean }, cmd: Command) => {
      const json = ctx.json(cmd);
      if (o.calibrate) {
        const { formatCalibration } = await import('./calibration-text.ts');
        // Each situation's line as it is judged (a minute per agent is long to wait in silence).
        const live = cliErr().isTTY && !json;
        const r = await ops.calibrate(ctx.paths(cmd), { agent: o.agent, ...(o.backend && { backend: o.backend }), ...(o.auto && { auto: true }) }, (p) => {
          if (live) cliErr().write(`${escapeControls(`${p.agent}: ${p.line}`)}\n`);
        });
        emit(json, r, () => formatCalibration(r));
        setExitCode(r.ok ? 0 : 1);
        return;
      }
      const { runDoctor, formatDoctor } = await import('./doctor.ts');
      const opts = cmd.optsWithGlobals() as { home?: string };
      const r = await runDoctor(resolveHome(opts.home, cliEnv()));
      emit(json, r, () => formatDoctor(r));
      setExitCode(r.ok ? 0 : 1);
    });
}
