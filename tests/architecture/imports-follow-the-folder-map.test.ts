/**
 * The folder map (docs/2026-12-06-the-daemon-cut-by-method-family.md) as an assertion: every import between
 * product folders points down the list, so the written rule and the real one agree (issue 20 —
 * the map was broken in four of its eight rules and nothing checked it). Type-only imports count:
 * a type from a layer above still couples the lower one to it.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each folder and the folders it may import (besides itself and node/npm packages). */
const MAY_IMPORT: Record<string, string[]> = {
  cli: ['contract', 'io', 'machines'],
  daemon: ['actors', 'machines', 'io', 'persistence', 'contract'],
  actors: ['machines', 'io', 'persistence', 'contract'],
  machines: ['contract'],
  persistence: ['contract', 'io/fs'],
  io: ['contract'],
  'mock-agent': ['contract'],
  contract: [],
};

/**
 * Named exceptions, each with its reason: the CLI starts two programs that the one bundle holds
 * (`hand daemon run`, `hand mock-agent`), and its offline state-directory tools (lock probes,
 * `doctor`, `restore-db`) read the state directory when no daemon may be asked.
 */
const EXCEPTIONS: { from: RegExp; to: string; why: string }[] = [
  { from: /^cli\/commands\/daemon\.ts$/, to: 'daemon/main.ts', why: 'hand daemon run starts the daemon (dynamic import)' },
  { from: /^cli\/commands\/mock-agent-entry\.ts$/, to: 'mock-agent/main.ts', why: 'hand mock-agent runs the mock agent program' },
  { from: /^cli\//, to: 'persistence/lock-holder.ts', why: 'who holds the state directory, asked without a daemon' },
  { from: /^cli\/commands\/restore-db\.ts$/, to: 'persistence/home-lock.ts', why: 'restore-db takes the lock of a stopped daemon' },
  { from: /^cli\//, to: 'persistence/lock-probe.ts', why: 'whether a database lock is held, asked without a daemon' },
  { from: /^cli\/commands\/doctor\.ts$/, to: 'persistence/db-health.ts', why: 'doctor checks the database when the daemon cannot start' },
  { from: /^cli\/commands\/restore-db\.ts$/, to: 'persistence/state-integrity.ts', why: 'restore-db works on a stopped daemon' },
];

const FOLDERS = Object.keys(MAY_IMPORT);

function layerOf(file: string): string | null {
  const top = file.split('/')[0]!;
  return FOLDERS.includes(top) ? top : null;
}

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) yield* sources(rel);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) yield rel;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

export function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push(normalize(join(dirname(file), (m[1] ?? m[2])!)));
  return out;
}

function allowed(from: string, to: string): boolean {
  const a = layerOf(from)!;
  const b = layerOf(to);
  if (b === null || a === b) return true;
  if (MAY_IMPORT[a]!.some((p) => to === p || to.startsWith(`${p}/`) || b === p)) return true;
  return EXCEPTIONS.some((x) => x.from.test(from) && x.to === to);
}

describe('imports follow the folder map', () => {
  const files = ['cli', 'daemon', 'actors', 'machines', 'io', 'persistence', 'contract', 'mock-agent'].flatMap((d) => [...sources(d)]);

  it('reads the whole product tree (the scan itself works)', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(importsOf('daemon/main.ts')).toContain('daemon/create-daemon.ts');
    expect(files).toContain('daemon/method-table.ts');
    expect(importsOf('daemon/method-table.ts')).toContain('daemon/gates/gate-methods.ts');
  });

  it('no file imports a folder above its own', () => {
    const up: string[] = [];
    for (const f of files) for (const t of importsOf(f)) if (!allowed(f, t)) up.push(`${f} → ${relative('.', t)}`);
    expect(up, `imports that point up the folder map:\n  ${up.join('\n  ')}`).toEqual([]);
  });

  it("the fleet host's parts never import its assembly: only actors/fleet-host.ts imports them", () => {
    // actors/fleet-host.ts was one closure doing every job; its parts (the record in the design
    // record's "the two files that did four jobs each") reach each other through the registry and
    // the interface, so the assembly stays the one file that knows them all.
    const parts = ['actors/fleet-registry.ts', 'actors/worker-commands.ts', 'actors/hooks-and-host-connections.ts', 'actors/fleet-host-interface.ts'];
    for (const part of parts) expect(files, `${part} is scanned`).toContain(part);
    expect(importsOf('actors/fleet-host.ts')).toEqual(expect.arrayContaining(parts.filter((p) => p !== 'actors/fleet-host-interface.ts')));
    const back = parts.flatMap((f) => importsOf(f).filter((t) => t === 'actors/fleet-host.ts').map(() => f));
    expect(back, 'parts that import actors/fleet-host.ts').toEqual([]);
    const importers = files.filter((f) => parts.slice(0, 3).some((p) => importsOf(f).includes(p)));
    expect(importers.filter((f) => !parts.includes(f) && f !== 'actors/fleet-host.ts'), 'product files that reach a part past the assembly').toEqual([]);
  });

  it('the map has no circle: each folder may import only folders below it in the list', () => {
    const below = (a: string, b: string) => FOLDERS.indexOf(b.split('/')[0] === 'io' ? 'io' : b) > FOLDERS.indexOf(a);
    const circles = FOLDERS.flatMap((a) => MAY_IMPORT[a]!.filter((b) => !below(a, b)).map((b) => `${a} → ${b}`));
    expect(circles).toEqual([]);
  });
});
