import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Real tmux servers, ptys, git repos and agent binaries on a 2-core machine: five files at once
    // keep both cores busy while others wait on an agent or a threshold (/proc/stat over whole
    // runs: 37 % idle with three, 21 % with four, 11 % with five; the suite 441 s → 346 s with
    // four before OpenCode's files came, 371 s with five after). Six (7 % idle, 335–355 s) failed
    // three of seven runs on load alone: OpenCode's calibration past its one-minute bound twice,
    // three far-host agents never reaching their dialogs within a minute once.
    maxWorkers: 5,
    // A worker process runs many files and keeps the modules it loaded: each file paid ~0.5 s of
    // CPU to start a fresh process and transform the daemon's graph again (30 screen and brief
    // files: 28 s of CPU isolated, 9.5 s not). A test restores what it changes (process.env,
    // timers) and never relies on a module's first use happening in its own file.
    isolate: false,
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed
    // by each file's content): a run after a small change transforms what changed, not the whole
    // graph again in every worker (tests/screen + tests/actors: 14.8 → 12.3 CPU-s, 10.2 → 7.8 s).
    experimental: { fsModuleCache: true },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['tests/global-setup.ts'],
    // The longest files start first, with or without vitest's results cache (a fresh clone has none).
    sequence: { sequencer: LongestFirstSequencer },
    // The suite's budget is visible in every log: wall time and the ten slowest files (issue 20).
    reporters: ['default', './tests/reporters/suite-budget.ts'],
  },
});
