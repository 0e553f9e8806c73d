/**
 * Self time of a V8 CPU profile (from `--cpu-prof` or node:inspector), by function and by file,
 * as shares of the busy (non-idle) time: what bench/profile-*.ts print to say where CPU goes.
 */
export interface CpuProfile {
  startTime: number;
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

// '(program)' is native time on the JS thread outside JS (libuv, syscalls): busy, not idle
const IDLE = new Set(['(idle)']);

/**
 * `window` ([from, to] in µs of CLOCK_MONOTONIC — V8's profile clock, and what
 * process.hrtime.bigint() / 1000n reads in any process on Linux) keeps only the samples taken
 * in it, e.g. the streaming phase of a daemon profiled since start-up.
 */
export function printSelfTime(profile: CpuProfile, topFunctions = 20, topFiles = 12, window?: [number, number]): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at < window[0] || at > window[1])) return;
    total += dt;
    if (IDLE.has(functionName)) return;
    busy += dt;
    const file = url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules\/[^/]+|work\/main)\//, '$1/') || '(native/gc)';
    const fn = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
  });
  const share = (v: number) => `${((v / busy) * 100).toFixed(1).padStart(5)} %`;
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  console.log(`profile ${(total / 1e6).toFixed(1)} s${window ? ' (window)' : ''}, busy ${((busy / total) * 100).toFixed(1)} %; top functions by self time (share of busy time):`);
  for (const [k, v] of top(byFn, topFunctions)) console.log(`${share(v)}  ${k}`);
  console.log('top files by self time (share of busy time):');
  for (const [k, v] of top(byFile, topFiles)) console.log(`${share(v)}  ${k}`);
}

/** For the `top` functions by self time, the call paths (up to `depth` callers) their time came through. */
export function printCallers(profile: CpuProfile, top = 3, depth = 4, paths = 4): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const via = new Map<string, Map<string, number>>();
  profile.samples.forEach((id, i) => {
    const fn = name(id);
    if (IDLE.has(byId.get(id)!.callFrame.functionName) || fn.startsWith('(')) return;
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(fn, (self.get(fn) ?? 0) + dt);
    const chain: string[] = [];
    for (let p = parent.get(id), k = 0; p !== undefined && k < depth; p = parent.get(p), k++) chain.push(name(p));
    const m = via.get(fn) ?? new Map<string, number>();
    m.set(chain.join(' ← '), (m.get(chain.join(' ← ')) ?? 0) + dt);
    via.set(fn, m);
  });
  for (const [fn, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${fn} (${(t / 1000).toFixed(0)} ms self) called via:`);
    for (const [chain, v] of [...via.get(fn)!].sort((a, b) => b[1] - a[1]).slice(0, paths)) console.log(`  ${(v / 1000).toFixed(0).padStart(6)} ms  ← ${chain}`);
  }
}

/**
 * Inclusive time (a function and everything it called) as shares of the busy time: which paths
 * cost, where self time scatters over helpers. `window` as in printSelfTime.
 */
export function printInclusive(profile: CpuProfile, top = 25, window?: [number, number]): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist|io|actors|daemon)\//, '$1/')}:${lineNumber + 1}`;
  };
  const incl = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at < window[0] || at > window[1])) return;
    if (IDLE.has(byId.get(id)!.callFrame.functionName)) return;
    busy += dt;
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(n);
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + dt);
    }
  });
  console.log(`inclusive time (share of busy ${(busy / 1000).toFixed(0)} ms):`);
  for (const [l, t] of [...incl].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${((t / busy) * 100).toFixed(1).padStart(5)} %  ${l}`);
}
