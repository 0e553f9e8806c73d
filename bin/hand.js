#!/usr/bin/env node
// Entry point of the `hand` command. The sources are TypeScript run through tsx's loader,
// so a clone works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
