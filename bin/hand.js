#!/usr/bin/env node
// Entry point of the `hand` command. `npm ci` (prepare) and `npm test` build a bundle into
// dist/ so a command starts in plain Node; without it (or with HAND_FROM_SOURCE=1) the
// TypeScript sources run through tsx's loader, which costs a few hundred ms per start.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cli/main.js', import.meta.url);
if (!process.env.HAND_FROM_SOURCE && existsSync(bundle)) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
