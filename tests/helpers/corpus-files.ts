/**
 * The captures of a corpus directory (`<dir>/<version>/<backend>-<scenario>.json` beside its
 * `.txt` and `.ansi.txt`), versions and files in order: what the corpus tests score.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A capture's label, as the capture commands write it (`expected` is what the scenario did). */
export interface CorpusMeta {
  version: string;
  backend: 'tmux' | 'pty';
  cols: number;
  rows: number;
  scenario: string;
  expected: { state: string; promptBox?: string; reason?: string; agentError?: boolean; startingUp?: boolean };
}

export interface CorpusCapture<Meta> {
  /** `<version>/<backend>-<scenario>` */
  name: string;
  /** The path without its extension. */
  base: string;
  meta: Meta;
}

export function corpusCaptures<Meta>(dir: string): CorpusCapture<Meta>[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((version) =>
    readdirSync(join(dir, version)).filter((f) => f.endsWith('.json')).sort().map((file) => ({
      name: `${version}/${file.replace(/\.json$/, '')}`,
      base: join(dir, version, file.replace(/\.json$/, '')),
      meta: JSON.parse(readFileSync(join(dir, version, file), 'utf8')) as Meta,
    })));
}
