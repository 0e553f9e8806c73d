/**
 * Issue 26 item 4: a command loads only what it needs. The daemon's start is on the critical path
 * of every resume, and execa (~120 files), diff2html, markdown-it, @xterm/headless and node-pty
 * were loaded by it before it could restore a single worker — none of them needed until a gate
 * runs, a review page shows a document, or a pty pane is made. The built daemon is started with
 * a resolve hook that records every package it imports, until its socket answers.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, until } from '../helpers/temp.ts';
import { HAND_BIN } from '../helpers/hand-process.ts';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';

const NOT_AT_START = ['execa', 'diff2html', 'markdown-it', '@xterm/headless', 'node-pty', '@modelcontextprotocol/sdk'];

describe('the daemon starts without the modules it does not use', () => {
  it(`a fresh daemon answers its socket without having loaded ${NOT_AT_START.join(', ')}`, async () => {
    const tmp = makeTempDir('daemon-modules');
    const home = join(tmp.path, 'state');
    const log = join(tmp.path, 'loaded.txt');
    const hooks = join(tmp.path, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}
`);
    writeFileSync(join(tmp.path, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
    writeFileSync(log, '');
    const child = spawn(process.execPath, ['--import', join(tmp.path, 'register.mjs'), HAND_BIN, 'daemon', 'run', '--home', home], { stdio: 'ignore', env: { ...process.env, HAND_HOME: home } });
    try {
      await until('the daemon to answer on its socket', () => call(homePaths(home), 'ping', {}, { autostart: false }).catch(() => null), (p) => p !== null, 20_000, 50);
      const loaded = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean).map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!)));
      expect(loaded.has('better-sqlite3'), `the hook saw the daemon's packages: ${[...loaded].join(', ')}`).toBe(true);
      expect(NOT_AT_START.filter((m) => loaded.has(m)), `loaded at start: ${[...loaded].join(', ')}`).toEqual([]);
    } finally {
      await call(homePaths(home), 'shutdown', {}, { autostart: false }).catch(() => null);
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      tmp.cleanup();
    }
  });
});
