/**
 * Rule (issue 26, item 4): `hand <command>` loads only the file that registers that command
 * (a bare `--version` none of them), so a start pays for what it runs; help and an unknown name
 * load them all. The table in cli/command-files.ts must say exactly which names each file
 * registers, or a command would be missing from its own run.
 */
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { COMMAND_FILES, commandWord, registrarsFor } from '../../cli/command-files.ts';
import type { CommandContext } from '../../cli/commands/context.ts';

const ctx: CommandContext = {
  paths: () => { throw new Error('not run'); },
  daemonPaths: () => { throw new Error('not run'); },
  json: () => false,
};

describe('each command loads only its own file', () => {
  it('every file registers exactly the names the table gives it, and no name is in two files', async () => {
    const seen = new Set<string>();
    for (const file of COMMAND_FILES) {
      const program = new Command();
      (await file.load())(program, ctx);
      expect(program.commands.map((c) => c.name()), `the file of ${file.names.join(', ')}`).toEqual([...file.names]);
      for (const name of file.names) {
        expect(seen.has(name), `${name} is in two files`).toBe(false);
        seen.add(name);
      }
    }
  });

  it('a command loads its own file, --version none, help and an unknown name all of them', async () => {
    expect(await registrarsFor(['status', '--json'])).toHaveLength(1);
    expect(await registrarsFor(['--home', '/tmp/x', 'backlog', 'ready'])).toHaveLength(1);
    expect(await registrarsFor(['--version'])).toHaveLength(0);
    expect(await registrarsFor(['--help'])).toHaveLength(COMMAND_FILES.length);
    expect(await registrarsFor(['status', '--help'])).toHaveLength(1);
    expect(await registrarsFor([])).toHaveLength(COMMAND_FILES.length);
    expect(await registrarsFor(['no-such-command'])).toHaveLength(COMMAND_FILES.length);
    expect(commandWord(['--home', 'status', 'dispatch'])).toBe('dispatch');
  });
});
