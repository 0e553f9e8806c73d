/**
 * Rule: no secret of a worker's environment appears in any process's arguments — not in the
 * `tmux new-session` that starts it, not in the program that sets its environment, on any host.
 * Arguments are world-readable (/proc/<pid>/cmdline, `ps`) for as long as a process lives, and
 * the short-lived ones are exactly where `env -i KEY=VAL …` put every variable.
 *
 * Each host is given argv-recording stand-ins for the programs it runs (tmux itself, env(1)):
 * every argv the host hands them is logged, so a short-lived command line is seen for certain,
 * not only when a sampler happens to catch it. /proc is sampled as well while the pane starts.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { useCleanups } from '../helpers/cleanups.ts';

/** A stand-in that appends its argv (NUL-separated, one record per line) to `log`, then runs `real`. */
function recordingStandIn(dir: string, name: string, real: string, log: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\0' "$@" >> '${log}'\nprintf '\\n' >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path, 0o700);
  return path;
}

function whichSync(bin: string): string {
  for (const d of (process.env.PATH ?? '/usr/bin:/bin').split(':')) if (existsSync(join(d, bin))) return join(d, bin);
  throw new Error(`${bin} not found on PATH`);
}

/** Reads every process's command line over and over until stopped; returns those holding `needle`. */
function sampleCommandLines(needle: string): { stop(): Promise<string[]> } {
  let running = true;
  const hits: string[] = [];
  const loop = (async () => {
    while (running) {
      const pids = (await readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
      await Promise.all(pids.map(async (pid) => {
        const line = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (line.includes(needle)) hits.push(line.replace(/\0/g, ' '));
      }));
    }
  })();
  return { async stop() { running = false; await loop; return hits; } };
}

const defer = useCleanups();

interface Case {
  name: string;
  make(dir: string, log: string): { host: TerminalHost; launchDir: string };
}

const cases: Case[] = [
  {
    name: 'tmux',
    make(dir, log) {
      const launchDir = join(dir, 'state', 'launch');
      const host = createTmuxHost({
        socketPath: join(dir, 'state', 'tmux.sock'),
        tmuxBin: recordingStandIn(dir, 'tmux', whichSync('tmux'), log),
        envBin: recordingStandIn(dir, 'env', '/usr/bin/env', log),
      });
      defer(() => host.killServer().catch(() => {}));
      return { host, launchDir };
    },
  },
  {
    name: 'pty',
    make(dir, log) {
      const launchDir = join(dir, 'launch');
      const host = createPtyHost({ envBin: recordingStandIn(dir, 'env', '/usr/bin/env', log), launchDir });
      defer(() => host.dispose());
      return { host, launchDir };
    },
  },
];

describe('no secret of a worker environment is ever a process argument', () => {
  for (const c of cases) {
    it(`${c.name}: the worker gets exactly its environment, and no argument of any process held the secret`, async () => {
      const d = makeTempDir(`no-secret-${c.name}`);
      defer(d.cleanup);
      const log = join(d.path, 'argv.log');
      writeFileSync(log, '');
      const { host, launchDir } = c.make(d.path, log);
      const secret = `sk-ant-kh-test-${process.pid}-${Date.now()}`;
      const out = join(d.path, 'env.json');
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ANTHROPIC_API_KEY: secret, WITH_EQUALS: 'a=b=c', EMPTY: '' };
      const sampler = sampleCommandLines(secret);
      await host.createPane({
        name: `secretive-${c.name}`,
        cwd: d.path,
        env,
        argv: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env)); setInterval(() => {}, 1000)`],
      });
      await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').length > 0, { what: `the ${c.name} worker to write its environment` });
      const sampled = await sampler.stop();
      // Exactly its environment: nothing lost, nothing added (no PWD, TERM or TMUX of a host).
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(env);
      // Every argv the host handed tmux or env(1): none holds the secret.
      const recorded = readFileSync(log, 'utf8');
      expect(recorded.includes(secret), `a recorded command line held the secret:\n${recorded.replace(/\0/g, ' ')}`).toBe(false);
      expect(sampled).toEqual([]);
      // The file the environment travelled in is private and gone once read.
      expect(statSync(launchDir).mode & 0o777).toBe(0o700);
      expect(readdirSync(launchDir)).toEqual([]);
    });
  }
});
