/**
 * The registry of screen profiles. A new agent = one spec file + one line in SPECS.
 */
import { UsageError } from '../../../contract/errors.ts';
import type { Screen } from '../types.ts';
import type { ScreenProfile, ScreenProfileSpec } from '../profile-spec.ts';
import { analyseWith } from '../analyse.ts';
import { layoutScreen } from '../layout.ts';
import { readBox } from '../prompt-box.ts';
import { claudeCodeSpec } from './claude-code.ts';
import { codexSpec } from './codex.ts';
import { geminiSpec } from './gemini.ts';
import { opencodeSpec } from './opencode.ts';
import { qwenSpec } from './qwen.ts';

const SPECS: readonly ScreenProfileSpec[] = [claudeCodeSpec, codexSpec, geminiSpec, opencodeSpec, qwenSpec];

export function createProfile(spec: ScreenProfileSpec): ScreenProfile {
  return {
    name: spec.name,
    spec,
    analyse: (screen: Screen) => analyseWith(screen, spec),
    readPromptBox: (screen: Screen) => {
      const layout = layoutScreen(screen, spec.box, spec);
      return spec.readBox ? spec.readBox(layout) : readBox(layout, spec.box);
    },
  };
}

const PROFILES = new Map<string, ScreenProfile>();
for (const spec of SPECS) {
  const profile = createProfile(spec);
  for (const name of [spec.name, ...(spec.aliases ?? [])]) PROFILES.set(name, profile);
}

/** Profile names (without aliases), for help texts. */
export function profileNames(): string[] {
  return SPECS.map((spec) => spec.name);
}

/**
 * The profile called `name` (or one of its aliases); an unknown name is a usage error.
 * `name@version` (e.g. `claude@2.0.77`, the version recorded at dispatch) picks the variant of
 * the nearest corpus version; a profile without variants ignores the version.
 */
export function getProfile(name: string): ScreenProfile {
  const at = name.indexOf('@');
  if (at > 0) return versionedProfile(name.slice(0, at), name.slice(at + 1));
  const profile = PROFILES.get(name);
  if (profile === undefined) {
    throw new UsageError(
      'unknown-agent',
      `unknown agent profile ${JSON.stringify(name)}: use one of ${profileNames().join(', ')}`,
      { agent: name },
    );
  }
  return profile;
}

const VARIANTS = new Map<string, ScreenProfile>();

function versionedProfile(name: string, version: string): ScreenProfile {
  const base = getProfile(name);
  const spec = base.spec.forVersion?.(version);
  if (spec === undefined) return base;
  const key = `${base.name}@${spec.name}`;
  let profile = VARIANTS.get(key);
  if (profile === undefined) {
    profile = createProfile(spec);
    VARIANTS.set(key, profile);
  }
  return profile;
}
