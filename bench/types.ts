/** One figure a benchmark reports. `target` is what the figure should reach (null: none set). */
export interface BenchResult {
  name: string;
  unit: string;
  /** How many samples the percentiles are over. */
  n: number;
  p50: number;
  p95: number;
  target: number | null;
  note?: string;
}
