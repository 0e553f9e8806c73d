#!/usr/bin/env node
// Entry point of the mock agent, a stand-in for Claude Code's terminal UI used by tests,
// benchmarks and the demo. TypeScript sources run through tsx's loader, as for bin/hand.js.
import { register } from 'tsx/esm/api';

register();
await import('../mock-agent/main.ts');
