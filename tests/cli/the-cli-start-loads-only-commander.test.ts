/**
 * `hand` starts in about Node's own start-up (issue 26 #4): the bundle's static import graph —
 * what every command pays before it runs — holds commander and Node's built-ins only. SQLite's
 * native module, execa, the MCP SDK, pino and markdown-it are loaded by the commands that use
 * them (dynamic imports). `npm test` builds dist/ before the suite runs.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const STATIC = /^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";?$|^import\s+"([^"]+)";?$/gm;

function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  walk(entry);
  return { files, packages };
}

describe('the CLI start loads only what a command needs', () => {
  it('the bundle exists (npm test and npm ci build it)', () => {
    expect(existsSync(MAIN), `${MAIN} is missing: run npm run build`).toBe(true);
  });

  it('statically imports commander and nothing else outside Node', () => {
    const { files, packages } = staticGraph(MAIN);
    expect(files.size).toBeGreaterThan(1);
    expect([...packages].sort()).toEqual(['commander']);
  });
});
