#!/usr/bin/env node
// Entry point of the `hand` command. `npm ci` (prepare) and `npm test` build a bundle into
// dist/ so a command starts in plain Node; the TypeScript sources run through tsx's loader
// (a few hundred ms per start) when there is no bundle, when HAND_FROM_SOURCE=1, or when any
// source file is newer than the bundle — a stale bundle must never answer in a working copy.
import { existsSync } from 'node:fs';
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

const fromSource = Boolean(process.env.HAND_FROM_SOURCE);
let fresh = null;
const bundleFresh = () => (fresh ??= !fromSource && bundleIsFresh(root, ['cli/main.js', 'quick.js']));

// `hand status --json`, `hand backlog ready --json` and `hand wait <id> --json …` (with --home
// at most) without commander: dist/quick.js, a file of its own (cli/quick.ts; a start pays for
// each module file it loads). A read it cannot answer falls through to the full program below.
const quickShape = args.includes('--json') && (args.includes('status') || args.includes('wait') || args.includes('ready'));
// (Loaded before the freshness check, to ask early; a bundle that proves stale answers nothing.)
const quickModule = quickShape && !fromSource && existsSync(`${root}dist/quick.js`) ? await import('../dist/quick.js').catch(() => null) : null;
if (quickModule) {
  const { quickCommand, quickRead, quickWait } = quickModule;
  const quick = quickCommand(args);
  const done = async (code) => {
    if (process.stdout.writableLength > 0) await new Promise((r) => process.stdout.once('drain', r));
    process.exit(code);
  };
  if (quick?.kind === 'status' || quick?.kind === 'backlog-ready') {
    // The read is asked first and the bundle checked against the sources while the daemon
    // answers; the answer is printed only if the bundle is current (a read is safe to ask twice).
    const answered = quickRead(quick);
    if (bundleFresh()) {
      const printAnswer = await answered;
      if (printAnswer) {
        printAnswer();
        await done(0);
      }
    }
  }
  if (quick?.kind === 'wait' && bundleFresh()) await done(await quickWait(quick));
}

if (bundleFresh()) {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
