/** Percentiles and the BenchResult shape every figure is reported in. */
import type { BenchResult } from '../types.ts';

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  // nearest-rank: the smallest sample with at least p% of samples at or below it
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function summarise(name: string, unit: string, samples: readonly number[], target: number | null, note?: string): BenchResult {
  return {
    name,
    unit,
    n: samples.length,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    target,
    ...(note ? { note } : {}),
  };
}

/** A single measured value (no distribution): p50 = p95 = value, n = 1. */
export function single(name: string, unit: string, value: number, target: number | null, note?: string, digits = 1): BenchResult {
  return { name, unit, n: 1, p50: round(value, digits), p95: round(value, digits), target, ...(note ? { note } : {}) };
}

/** Wall clock in the same time base as the mock agent's event log (ms since the epoch, sub-ms). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
