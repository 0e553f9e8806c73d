/**
 * What each Codex CLI release in the capture corpus (tests/fixtures/codex-corpus/<version>/) draws
 * around a turn, as data: the reader asks it what a screen that shows a turn's entries under the
 * last echoed prompt, no status line and no end line under them means for one release. Kept here,
 * not read from tests/, because the product never reads the test tree at run time.
 *
 * Three behaviours were captured (docs/2026-12-06-codex-releases-and-the-turn-end.md):
 *  - 0.100.0 to 0.140.0 keep `• Working (… esc to interrupt)` above the box for the whole turn,
 *    streamed reply included, and leave no line under a quick finished turn: without the status
 *    line the turn is over;
 *  - 0.150.0 hides the status line while a reply streams and leaves no line under a finished
 *    turn: a streaming turn and a finished one are the same screen, byte for byte. The screen
 *    cannot tell; the agent's own word (its notify, `hand hook Stop`) can;
 *  - 0.155.0 and later hide it too, but always leave an end line under a finished turn (`done
 *    2:59 AM`, `02:59`, `Worked for <1s • 08:26`): without one the turn is still open.
 */

/** What a turn's entries with neither a status line nor an end line under them mean. */
export type OpenTurnTail = 'finished' | 'running' | 'cannot-tell';

export interface CodexRelease {
  readonly version: string;
  /** The status line stays above the box while a reply streams (a running turn always shows it). */
  readonly statusWhileStreaming: boolean;
  /** A finished turn always leaves an end line under it (time, `done …`, `Worked for …`, `■ …`). */
  readonly endLineAlways: boolean;
}

/** The releases the corpus holds captures of, oldest first. */
export const CODEX_RELEASES: readonly CodexRelease[] = [
  { version: '0.100.0', statusWhileStreaming: true, endLineAlways: false },
  { version: '0.120.0', statusWhileStreaming: true, endLineAlways: false },
  { version: '0.140.0', statusWhileStreaming: true, endLineAlways: false },
  { version: '0.150.0', statusWhileStreaming: false, endLineAlways: false },
  { version: '0.155.0', statusWhileStreaming: false, endLineAlways: true },
  { version: '0.158.0', statusWhileStreaming: false, endLineAlways: true },
  { version: '0.160.1', statusWhileStreaming: false, endLineAlways: true },
  { version: '0.169.0', statusWhileStreaming: false, endLineAlways: true },
  { version: '0.171.0', statusWhileStreaming: false, endLineAlways: true },
];

/** The versions the corpus holds captures of (tests/fixtures/codex-corpus/), oldest first. */
export const CODEX_CORPUS_VERSIONS: readonly string[] = CODEX_RELEASES.map((r) => r.version);

/** `0.160.1` → [0, 160, 1]; a pre-release suffix is ignored; null when it is no version. */
function parts(version: string): [number, number, number] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function compareCodexVersions(a: string, b: string): number {
  const pa = parts(a) ?? [0, 0, 0];
  const pb = parts(b) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

function tailOf(r: CodexRelease): OpenTurnTail {
  if (r.statusWhileStreaming) return 'finished';
  return r.endLineAlways ? 'running' : 'cannot-tell';
}

/**
 * What an open-looking turn tail means for `version`: its own release's answer when captured;
 * between two captured releases, their answer when they agree and "cannot tell" when they do
 * not (where between them the behaviour changed was not captured); newer than every capture, the
 * newest's (`hand doctor` says the version is outside the corpus); older, "cannot tell".
 */
export function openTurnTailFor(version: string | null): OpenTurnTail {
  const newest = CODEX_RELEASES.at(-1)!;
  if (version === null || parts(version) === null) return tailOf(newest);
  let below: CodexRelease | undefined;
  let above: CodexRelease | undefined;
  for (const r of CODEX_RELEASES) {
    const c = compareCodexVersions(r.version, version);
    if (c === 0) return tailOf(r);
    if (c < 0) below = r;
    else if (above === undefined) above = r;
  }
  if (above === undefined) return tailOf(newest);
  if (below === undefined) return 'cannot-tell';
  return tailOf(below) === tailOf(above) ? tailOf(below) : 'cannot-tell';
}

/** Where a Codex version stands against the corpus, in one line (`hand doctor`). */
export function codexCorpusStanding(version: string): string {
  const oldest = CODEX_CORPUS_VERSIONS[0]!;
  const newest = CODEX_CORPUS_VERSIONS.at(-1)!;
  if (CODEX_CORPUS_VERSIONS.includes(version)) return `in the reader's corpus (${oldest} … ${newest})`;
  if (compareCodexVersions(version, newest) > 0) return `newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often; fix: npm run capture -- --agent codex --version ${version}`;
  if (compareCodexVersions(version, oldest) < 0) return `older than the reader's corpus (oldest ${oldest}): a finished turn may read "could not tell" unless its notify says the turn ended`;
  const tail = openTurnTailFor(version);
  return `between the corpus versions (${oldest} … ${newest})${tail === 'cannot-tell' ? ': whether a turn without a status line is over is left to its notify (the witness)' : ''}`;
}
