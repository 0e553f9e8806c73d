/**
 * The agent profile registry (io/agent/profiles/index.ts) is handed its profiles and is imported by
 * nothing they reach (issue 44): a profile that looked the registry up again through a helper
 * (claude.ts → launch.ts → index.ts, claude.ts → setup-facts.ts → launch.ts) made the modules'
 * order of evaluation decide whether a profile was defined yet, and each new agent deepened it.
 * Value imports only: a type from the registry's file couples nothing at run time.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REGISTRY = 'io/agent/profiles/index.ts';

function valueImports(): Map<string, string[]> {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'io', 'contract'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n').filter((f) => f.endsWith('.ts') && existsSync(join(ROOT, f)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    const targets = [...text.matchAll(/^(?:import|export) (?!type )[^;]*? from '(\.[^']+)'/gm)].map((m) => normalize(join(dirname(f), m[1]!)));
    graph.set(f, targets.filter((t) => known.has(t)));
  }
  return graph;
}

function reachable(graph: Map<string, string[]>, from: string): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) for (const next of graph.get(queue.pop()!) ?? []) if (!seen.has(next)) (seen.add(next), queue.push(next));
  return seen;
}

describe('the agent profile registry is in no import loop', () => {
  it('no module the registry reaches imports the registry back', () => {
    const graph = valueImports();
    expect(graph.has(REGISTRY), `${REGISTRY} is where the registry lives`).toBe(true);
    const loop = [...reachable(graph, REGISTRY)].filter((f) => f !== REGISTRY && reachable(graph, f).has(REGISTRY));
    expect(loop, `modules in a loop with ${REGISTRY}`).toEqual([]);
  });
});
