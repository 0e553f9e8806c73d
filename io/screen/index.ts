/**
 * io/screen: pure screen analysis. Input is the visible viewport (+ cell attributes); output is
 * a ScreenReading. Nothing here touches a terminal, a file or a clock.
 */
import type { Screen, ScreenReading } from './types.ts';
import type { PromptBoxReading } from './profile-spec.ts';
import { getProfile } from './profiles/index.ts';

export type * from './types.ts';
export type { PromptBoxReading, PromptBoxSpec, BlockerRule, ScreenProfile, ScreenProfileSpec } from './profile-spec.ts';
export type { ParseOptions } from './parse-plain.ts';
export { parsePlain } from './parse-plain.ts';
export { parseAnsi } from './parse-ansi.ts';
export { screenFromLines } from './screen-from-lines.ts';
export { isReadable, MIN_READABLE_COLUMNS } from './readability.ts';
export { fingerprintScreen } from './fingerprint.ts';
export { lastActivity } from './last-activity.ts';
export { UNREADABLE_READING, unreadableReading } from './unreadable.ts';
export { getProfile, profileNames, createProfile } from './profiles/index.ts';
export { CORPUS_VERSIONS, compareVersions, nearestCorpusVersion, newestCorpusVersion, parseClaudeVersion } from './profiles/claude-versions.ts';

export const DEFAULT_AGENT = 'claude';

/** The full reading of one screen for `agent`'s profile (throws UsageError for an unknown agent). */
export function analyseScreen(screen: Screen, agent: string = DEFAULT_AGENT): ScreenReading {
  return getProfile(agent).analyse(screen);
}

/** The live input box ({text, kind}), or null when none is visible. */
export function readPromptBox(screen: Screen, agent: string = DEFAULT_AGENT): PromptBoxReading | null {
  return getProfile(agent).readPromptBox(screen);
}
