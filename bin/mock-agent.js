#!/usr/bin/env node
// Entry point of the mock agent, a stand-in for Claude Code's terminal UI used by tests,
// benchmarks and the demo. Like bin/hand.js it runs the dist/ bundle when that is fresh (a
// start costs about 0.14 s of CPU against 0.6 s through tsx's loader, and every mock worker
// pays it), and the TypeScript sources otherwise.
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from './bundle-freshness.js';

const root = fileURLToPath(new URL('..', import.meta.url));

if (!process.env.HAND_FROM_SOURCE && bundleIsFresh(root, 'mock-agent/main.js')) {
  await import(new URL('../dist/mock-agent/main.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../mock-agent/main.ts');
}
