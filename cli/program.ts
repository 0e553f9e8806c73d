/**
 * The `hand` program: routing only. Each command lives in its own file under cli/commands/ (one
 * register function per command or small family); each parses and validates its flags, asks the
 * daemon, and prints text or --json. Typed errors become exit codes here and nowhere else. A run's
 * streams, environment and exit code come from its CliIo (cli/io.ts): the binary (cli/main.ts)
 * passes the process's own, a test its own, so the same program runs in either.
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../io/root.ts';
import { resolveHome, type HomePaths } from '../contract/home.ts';
import { ensureHome, existingHome } from '../io/fs/ensure-home.ts';
import { printText, reportError } from './output.ts';
import { cliEnv, cliErr, cliOut, withCliIo, type CliIo } from './io.ts';
import type { CommandContext } from './commands/context.ts';
import { registrarsFor, type Registrar } from './command-files.ts';

const pkg = JSON.parse(readFileSync(join(KINGSHAND_ROOT, 'package.json'), 'utf8')) as { version: string };
function paths(cmd: Command): HomePaths {
  const opts = cmd.optsWithGlobals() as { home?: string };
  return ensureHome(resolveHome(opts.home, cliEnv()));
}
/** For commands that only reach the daemon (stop, status): a read-only or immutable home is fine. */
function daemonPaths(cmd: Command): HomePaths {
  const opts = cmd.optsWithGlobals() as { home?: string };
  return existingHome(resolveHome(opts.home, cliEnv()));
}
function json(cmd: Command): boolean {
  return Boolean((cmd.optsWithGlobals() as { json?: boolean }).json);
}
const ctx: CommandContext = { paths, daemonPaths, json };

/** A fresh program per run: commander keeps parsed options on its commands. */
function buildProgram(registrars: Registrar[]): Command {
  const program = new Command();
  program
    .name('hand')
    .description('Supervise AI coding agents: dispatch workers into git worktrees and terminals, watch their screens, bring back what needs a decision.')
    .version(pkg.version, '-V, --version')
    .option('--home <dir>', 'state directory (default $HAND_HOME or ~/.local/state/kingshand)')
    .option('--json', 'print JSON instead of text')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
  Examples:
    hand annex ~/src/shop                         register a repository
    hand dispatch fix-login --repo ~/src/shop --brief brief.md
    hand wait fix-login --until blocked           wakes the moment it needs you
    hand read fix-login                           its screen
    hand keys fix-login down                      one key per call
    hand answer fix-login 2 --fingerprint <fp>    the person's choice in its dialog
    hand status --json                            the fleet, for scripts

  Exit codes: 0 ok, 1 refused or failed, 2 bad usage, 3 daemon unreachable.`,
    )
    // commander echoes bad arguments back: they too reach the terminal as text only
    .configureOutput({ writeOut: (t) => printText(cliOut(), t), writeErr: (t) => printText(cliErr(), t) })
    .exitOverride();

  // Only the file of the command being run is loaded (issue 26: `hand --version` loaded all forty);
  // help and anything unknown load them all, in the order of `hand --help` (cli/command-files.ts).
  for (const register of registrars) register(program, ctx);
  return program;
}

/** Runs `hand` with `argv` (process.argv's shape) and `io`; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const jsonWanted = argv.includes('--json');
  const { value, exitCode } = await withCliIo(io, async () => {
    try {
      await buildProgram(await registrarsFor(argv.slice(2))).parseAsync(argv);
      return null;
    } catch (err) {
      if (err instanceof CommanderError) {
        if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
        return 2;
      }
      return reportError(err, jsonWanted);
    }
  });
  return value ?? exitCode ?? 0;
}
