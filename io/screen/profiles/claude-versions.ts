/**
 * Claude Code versions whose screens are in the capture corpus (tests/fixtures/claude-corpus,
 * `npm run capture -- --claude <version>`), and the reader variant for each era. A worker's
 * profile is the nearest corpus version at or below the version recorded at dispatch; a newer
 * version than any in the corpus reads with the newest profile and `hand doctor` warns.
 * Kept as data here because the product never reads tests/ at run time.
 */
export const CORPUS_VERSIONS: readonly string[] = ['1.0.0', '1.0.128', '2.0.0', '2.0.77', '2.1.12', '2.1.50', '2.1.197', '2.1.332'];

/** -1, 0, 1 on dotted numeric versions (`2.1.50` < `2.1.197`); junk sorts first. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10));
  const pb = b.split('.').map((x) => Number.parseInt(x, 10));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = Number.isFinite(pa[i]) ? pa[i]! : -1;
    const y = Number.isFinite(pb[i]) ? pb[i]! : -1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The version out of `claude --version` output (`2.1.332 (Claude Code)`), or null. */
export function parseClaudeVersion(out: string): string | null {
  return /\b(\d+\.\d+\.\d+)\b/.exec(out)?.[1] ?? null;
}

/** The corpus version a reader for `version` should follow: nearest at or below, else the oldest. */
export function nearestCorpusVersion(version: string): string {
  let best = CORPUS_VERSIONS[0]!;
  for (const v of CORPUS_VERSIONS) if (compareVersions(v, version) <= 0) best = v;
  return best;
}

export function newestCorpusVersion(): string {
  return CORPUS_VERSIONS[CORPUS_VERSIONS.length - 1]!;
}

/**
 * The prompt glyphs of a version's era: 2.0.0 drew its box as `>` + U+00A0, 2.0.77 and every
 * later corpus version as `❯` + U+00A0. Where between the two it changed is not captured, so
 * versions before 2.0.77 accept both; from 2.0.77 on a `>` row is never taken for the box.
 */
export function promptGlyphsFor(version: string): string {
  return compareVersions(version, '2.0.77') < 0 ? '\u276F>' : '\u276F';
}
