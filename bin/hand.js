#!/usr/bin/env node
// Entry point of the `hand` command. `npm ci` (prepare) and `npm test` build a bundle into
// dist/ so a command starts in plain Node; the TypeScript sources run through tsx's loader
// (a few hundred ms per start) when there is no bundle, when HAND_FROM_SOURCE=1, or when any
// source file is newer than the bundle — a stale bundle must never run in a working copy.
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from './bundle-freshness.js';

const root = fileURLToPath(new URL('..', import.meta.url));

// `hand --version` needs only the package's version: no bundle, no commander (issue 26).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version}\n`);
  process.exit(0);
}

const fresh = !process.env.HAND_FROM_SOURCE && bundleIsFresh(root);

// `hand status --json`, `hand backlog ready --json` and `hand wait <id> --json …` (with --home
// at most) without commander (cli/quick.ts); a read it cannot answer falls through to the full
// program below.
if (fresh && args.includes('--json') && (args.includes('status') || args.includes('wait') || args.includes('ready'))) {
  const { quickCommand, quickRead, quickWait } = await import('../dist/cli/quick.js');
  const quick = quickCommand(args);
  const done = async (code) => {
    if (process.stdout.writableLength > 0) await new Promise((r) => process.stdout.once('drain', r));
    process.exit(code);
  };
  if ((quick?.kind === 'status' || quick?.kind === 'backlog-ready') && (await quickRead(quick))) await done(0);
  if (quick?.kind === 'wait') await done(await quickWait(quick));
}

if (fresh) {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
