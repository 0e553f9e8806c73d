/**
 * Runs the mock agent on this process's terminal. Resolves with the exit status; throws a
 * UsageError (exit 2) for bad options before the terminal is touched.
 */
import { MockAgentApp, type TerminalPort } from './app.ts';
import { resolveConfig, type MockAgentOptions } from './options.ts';

export type { MockAgentOptions } from './options.ts';

function processTerminal(): TerminalPort {
  const out = process.stdout;
  // After a hang-up the terminal is gone and the last writes fail (EIO/EPIPE): expected, not a crash.
  const ignore = () => {};
  out.on('error', ignore);
  process.stderr.on('error', ignore);
  return {
    input: process.stdin,
    output: out,
    errorOutput: process.stderr,
    size: () => ({ cols: out.columns || 80, rows: out.rows || 24 }),
    onResize: (listener) => {
      out.on('resize', listener);
      return () => out.off('resize', listener);
    },
  };
}

const SIGNAL_STATUS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export async function startMockAgent(options: MockAgentOptions, cwd = process.cwd(), env = process.env): Promise<number> {
  const config = resolveConfig(options, env, cwd);
  const app = new MockAgentApp(config, processTerminal());
  const handlers = Object.entries(SIGNAL_STATUS).map(([signal, status]) => {
    const handler = () => app.terminate(status as number);
    process.on(signal as NodeJS.Signals, handler);
    return () => process.off(signal as NodeJS.Signals, handler);
  });
  try {
    return await app.run();
  } finally {
    for (const off of handlers) off();
  }
}
