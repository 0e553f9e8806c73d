/**
 * Starting a program with exactly an environment, without the environment ever being a process
 * argument. `env -i -- KEY=VAL … argv` put every variable of a worker (API keys included) into
 * the argv of `env` and of the `tmux new-session` that ran it: world-readable in
 * /proc/<pid>/cmdline and `ps` for as long as those processes lived.
 *
 * Instead the environment goes into a file only its owner can read (0600, in a 0700 directory),
 * and the pane runs a constant launcher that reads the file, deletes it, replaces its whole
 * environment with the file's and execs the program. The launcher is perl: exec(2) with a chosen
 * environment is what the job needs and node 20 cannot exec; perl is part of every Debian system
 * (perl-base is Essential) and of macOS. Its script is a constant: the data only ever travels in
 * the file, NUL-separated, so no value is ever parsed by a shell.
 *
 * The file is deleted by the launcher the moment it is read; one that was never read (the pane
 * failed to start) is deleted by `sweep` after a bound.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** Reads `<file>`, deletes it, sets %ENV to exactly its NUL-separated KEY=VALUE entries, execs the rest. */
const LAUNCHER = [
  'my $f = shift @ARGV;',
  "open(my $h, '<:raw', $f) or do { print STDERR \"kingshand launcher: cannot read $f: $!\\n\"; exit 127 };",
  'local $/; my $data = <$h>; close $h; unlink $f;',
  '%ENV = ();',
  "for my $kv (split /\\0/, $data) { my ($k, $v) = split /=/, $kv, 2; $ENV{$k} = $v if defined $v; }",
  'exec { $ARGV[0] } @ARGV;',
  'print STDERR "kingshand launcher: cannot run $ARGV[0]: $!\\n"; exit 127;',
].join(' ');

/** The pane's argv: the constant launcher, the file it reads, then the program. */
export function launcherArgv(perl: string, file: string, argv: readonly string[]): string[] {
  return [perl, '-e', LAUNCHER, '--', file, ...argv];
}

/** Files older than this in the launch directory were never read: a pane that never started. */
const UNREAD_AFTER_MS = 60_000;

export function findPerl(): string {
  for (const candidate of ['/usr/bin/perl', '/bin/perl', '/usr/local/bin/perl']) if (existsSync(candidate)) return candidate;
  return 'perl';
}

export interface LaunchEnvFiles {
  readonly dir: string;
  /**
   * Writes `env` to a fresh 0600 file and returns the argv that starts `argv` with exactly that
   * environment. Only the file's path and `argv` appear in any process's arguments.
   */
  argvFor(env: Record<string, string>, argv: readonly string[]): { argv: string[]; file: string };
  /** Deletes files nobody read within the bound (or all of them with `all`). */
  sweep(all?: boolean): void;
}

export function launchEnvFiles(dir: string, perl: string = findPerl()): LaunchEnvFiles {
  const ensureDir = () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  };
  const files: LaunchEnvFiles = {
    dir,
    argvFor(env, argv) {
      ensureDir();
      files.sweep();
      const file = join(dir, `env-${process.pid}-${randomBytes(8).toString('hex')}`);
      const data = Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\0');
      // wx: never follow or reuse a file someone else put there.
      writeFileSync(file, data, { mode: 0o600, flag: 'wx' });
      return { argv: launcherArgv(perl, file, argv), file };
    },
    sweep(all = false) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      const now = Date.now();
      for (const name of names) {
        if (!name.startsWith('env-')) continue;
        const path = join(dir, name);
        try {
          if (all || now - statSync(path).mtimeMs > UNREAD_AFTER_MS) rmSync(path, { force: true });
        } catch {
          // gone meanwhile: read by its launcher
        }
      }
    },
  };
  return files;
}
