/**
 * Writing one corpus capture, shared by every agent's capture (capture.ts, capture-fake-api-agents.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapturePane } from './pty-pane.ts';
import { ScenarioSkipped } from './scenarios.ts';

/** A failed scenario's error with what the fake API was asked and answered (a reply taken by another request shows there). */
export function withRequests(err: unknown, asked: string[]): unknown {
  if (err instanceof Error) {
    const [head, ...rest] = err.message.split('\n');
    err.message = [head, '--- fake API requests ---', ...asked, ...rest].join('\n');
  }
  return err;
}

/** The pane's screen, plain and SGR, and its label, as `<dir>/<backend>-<scenario>.*`; the run's temp root scrubbed out. */
export async function writeFixture(pane: CapturePane, dir: string, root: string, meta: { backend: string; scenario: string } & Record<string, unknown>): Promise<void> {
  const plain = await pane.capture();
  const ansi = await pane.capture({ ansi: true });
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${meta.backend}-${meta.scenario}`);
  // Machine paths of the throwaway run never go into the repository.
  const scrub = (s: string) => s.split(root).join('/tmp/kh-capture');
  writeFileSync(`${base}.txt`, scrub(plain));
  writeFileSync(`${base}.ansi.txt`, scrub(ansi));
  writeFileSync(`${base}.json`, JSON.stringify({ ...meta, captured: new Date().toISOString().slice(0, 10) }, null, 2) + '\n');
}

/**
 * Captures each scenario (those named in `only`, else all) on each backend it runs on, saying
 * under `label` (`qwen 0.15.10`) each one skipped (ScenarioSkipped) or failed; the number that failed.
 */
export async function captureEach<S extends { name: string; backends?: readonly ('tmux' | 'pty')[] }>(
  label: string,
  scenarios: readonly S[],
  backends: readonly ('tmux' | 'pty')[],
  only: readonly string[] | undefined,
  capture: (scenario: S, backend: 'tmux' | 'pty') => Promise<void>,
): Promise<number> {
  let failed = 0;
  for (const scenario of scenarios) {
    if (only && !only.includes(scenario.name)) continue;
    for (const backend of backends) {
      if (scenario.backends && !scenario.backends.includes(backend)) continue;
      try {
        await capture(scenario, backend);
      } catch (err) {
        if (err instanceof ScenarioSkipped) {
          console.error(`skip ${label} ${backend} ${scenario.name}: ${err.message}`);
          continue;
        }
        failed++;
        console.error(`FAIL ${label} ${backend} ${scenario.name}: ${(err as Error).message.slice(0, 3000)}`);
      }
    }
  }
  return failed;
}
