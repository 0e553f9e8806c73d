import { defineConfig } from 'vitest/config';
import PlannedSequencer from './tests/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Real tmux servers, ptys, git repos and agent binaries on a 2-core machine. Five files at once
    // with the longest first: the first two minutes saturated (every heavy file together) and the
    // rest 10–34 % idle (the light files waiting on their thresholds), 73 of 727 CPU-s idle, 366 s.
    // Six in the planned order (tests/sequencer.ts: the heavy files spread over the run, four at
    // once at most): 35 CPU-s idle, 332–342 s. Six in longest-first order had failed three of seven
    // runs on load alone (OpenCode's calibration past its one-minute bound twice, three far-host
    // agents never reaching their dialogs within a minute once): every heavy file ran at once.
    // Seven in the planned order failed both OpenCode files and took 380 s: 743 CPU-s busy against
    // 645, the same work starved.
    maxWorkers: 6,
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
    // A planned order: the longest files first, the heavy ones spread over the run; with or without
    // vitest's results cache (a fresh clone has none: tests/slow-files.ts then gives the times).
    sequence: { sequencer: PlannedSequencer },
    // The suite's budget is visible in every log: wall time and the ten slowest files (issue 20).
    reporters: ['default', './tests/reporters/suite-budget.ts'],
  },
});
