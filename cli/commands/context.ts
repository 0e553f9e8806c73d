/**
 * What every command's register function is given by the router (cli/program.ts): how a command
 * finds its state directory and whether it prints JSON. Each reads the program's global options
 * (--home, --json) through the command it runs as, so a fresh program per run keeps them apart.
 */
import type { Command } from 'commander';
import type { HomePaths } from '../../contract/home.ts';

export interface CommandContext {
  /** The state directory, made if missing (every command that may start the daemon). */
  paths(cmd: Command): HomePaths;
  /** For commands that only reach the daemon (stop, status): a read-only or immutable home is fine. */
  daemonPaths(cmd: Command): HomePaths;
  /** --json was given. */
  json(cmd: Command): boolean;
}
