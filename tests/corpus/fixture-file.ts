/**
 * Writing one corpus capture, shared by every agent's capture (capture.ts, capture-fake-api-agents.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapturePane } from './pty-pane.ts';

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
