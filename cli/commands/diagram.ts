/**
 * `hand diagram [worker|fleet|all] [--format mermaid|dot|json]`: the machines' diagrams, and the
 * generator of the committed files under visualizations/ (a test fails when they are stale).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workerMachine } from '../../machines/worker.machine.ts';
import { fleetMachine } from '../../machines/fleet.machine.ts';
import { toDot, toJsonGraph, toMermaid } from '../../machines/diagram-export.ts';

export type DiagramWhich = 'worker' | 'fleet' | 'all';
export type DiagramFormat = 'mermaid' | 'dot' | 'json';

const MACHINES = { worker: workerMachine, fleet: fleetMachine } as const;

function renderOne(name: 'worker' | 'fleet', format: DiagramFormat): string {
  const m = MACHINES[name];
  if (format === 'mermaid') return toMermaid(m);
  if (format === 'dot') return toDot(m);
  return JSON.stringify(toJsonGraph(m), null, 2) + '\n';
}

export function renderDiagram(which: DiagramWhich, format: DiagramFormat): string {
  if (which !== 'all') return renderOne(which, format);
  if (format === 'json') {
    return JSON.stringify({ worker: toJsonGraph(workerMachine), fleet: toJsonGraph(fleetMachine) }, null, 2) + '\n';
  }
  return renderOne('worker', format) + '\n' + renderOne('fleet', format);
}

const EXT: Record<DiagramFormat, string> = { mermaid: 'mmd', dot: 'dot', json: 'json' };

/** Every committed file: name → content. */
export function visualizationFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ['worker', 'fleet'] as const) {
    for (const format of ['mermaid', 'dot', 'json'] as const) files[`${name}.${EXT[format]}`] = renderOne(name, format);
  }
  files['README.md'] = [
    '# Diagrams',
    '',
    'Generated from `machines/*.machine.ts` by `hand diagram` (cli/commands/diagram.ts); never edit by hand.',
    'Regenerate with `node --import tsx -e "import(\'./cli/commands/diagram.ts\').then(m => m.writeVisualizations(\'visualizations\'))"`;',
    '`tests/machines/diagrams-are-current.test.ts` fails when these files are stale.',
    '',
    '## Worker',
    '',
    '```mermaid',
    files['worker.mmd']!.trimEnd(),
    '```',
    '',
    '## Fleet',
    '',
    '```mermaid',
    files['fleet.mmd']!.trimEnd(),
    '```',
    '',
  ].join('\n');
  return files;
}

export function writeVisualizations(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files = visualizationFiles();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return Object.keys(files);
}
