/**
 * What a Hand session start needs to know about this machine (issue 22): the Claude Code version
 * workers will run, against the versions the screen reader was scored on (CORPUS_VERSIONS), and
 * the prerequisites `hand doctor` checks that are missing (git, tmux, the agent binary), each
 * with its fix. Read from the environment that launches workers (the daemon's), so the version
 * said is the one a dispatch would start. The fix texts live here once; doctor prints them too.
 */
import { execFile } from 'node:child_process';
import { claudeBinary, claudeVersionOf } from './claude/binary.ts';
import { CORPUS_VERSIONS, compareVersions, nearestCorpusVersion, newestCorpusVersion } from '../screen/profiles/claude-versions.ts';

export const FIX_GIT = 'sudo apt-get install -y git   # or: brew install git';
export const FIX_TMUX = 'sudo apt-get install -y tmux   # or: brew install tmux';
export const FIX_CLAUDE = 'npm install --save-exact @anthropic-ai/claude-code@2.1.332';

// The shapes are the wire's (contract/), where the survey and the digest carry them.
import type { ClaudeStanding, MissingPrerequisite, SetupFacts } from '../../contract/methods/gates.ts';
export type { ClaudeStanding, MissingPrerequisite, SetupFacts };

const corpusSpan = () => `${CORPUS_VERSIONS[0]} … ${newestCorpusVersion()}`;

/** Pure: where `version` (of `binary`) stands against the corpus, said in one line. */
export function claudeStanding(binary: string | null, version: string | null): ClaudeStanding {
  if (binary === null) {
    return { version, binary, standing: 'missing', readWith: null, line: `Claude Code not found: --agent claude cannot start (the mock agent can); fix: ${FIX_CLAUDE}` };
  }
  if (version === null) {
    return { version, binary, standing: 'unknown-version', readWith: null, line: `Claude Code at ${binary} did not say its version; its screens are read by the general reader, scored on ${corpusSpan()}` };
  }
  const newest = newestCorpusVersion();
  if (CORPUS_VERSIONS.includes(version)) {
    return { version, binary, standing: 'in-corpus', readWith: version, line: `Claude Code ${version}: its screens are in the reader's corpus (scored on ${CORPUS_VERSIONS.length} versions, ${corpusSpan()})` };
  }
  if (compareVersions(version, newest) > 0) {
    return { version, binary, standing: 'newer', readWith: newest, line: `Claude Code ${version} is newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often; fix: npm run capture -- --claude ${version}` };
  }
  if (compareVersions(version, CORPUS_VERSIONS[0]!) < 0) {
    return { version, binary, standing: 'older', readWith: CORPUS_VERSIONS[0]!, line: `Claude Code ${version} is older than the reader's corpus (oldest ${CORPUS_VERSIONS[0]}): read with ${CORPUS_VERSIONS[0]}'s screens; fix: ${FIX_CLAUDE}` };
  }
  const near = nearestCorpusVersion(version);
  return { version, binary, standing: 'between', readWith: near, line: `Claude Code ${version}: not in the reader's corpus; read with ${near}'s screens, the nearest scored version below it (${corpusSpan()})` };
}

/** The first line `file args` prints, or null when it does not run (not on the environment's PATH). */
function firstLine(file: string, args: string[], env: Record<string, string | undefined>): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: env as NodeJS.ProcessEnv, encoding: 'utf8' }, (err, stdout) => resolve(err ? null : String(stdout).trim().split('\n')[0] ?? ''));
  });
}

/** `stateDir`: the daemon's home, where calibration.json says what each agent was last calibrated at. */
export async function setupFacts(env: Record<string, string | undefined>, stateDir?: string): Promise<SetupFacts> {
  const binary = claudeBinary(env);
  const [version, git, tmux, calibration] = await Promise.all([
    binary ? claudeVersionOf(binary) : Promise.resolve(null), firstLine('git', ['--version'], env), firstLine('tmux', ['-V'], env),
    // Loaded here, not at the top: the agent profiles it reads import this file's fix texts.
    stateDir ? import('./calibration-standing.ts').then((m) => m.calibrationStandings(env, stateDir)) : Promise.resolve(undefined),
  ]);
  const claude = claudeStanding(binary, version);
  const missing: MissingPrerequisite[] = [];
  if (git === null) missing.push({ name: 'git', detail: 'git not found: no worktree, no landing', fix: FIX_GIT });
  if (tmux === null) missing.push({ name: 'tmux', detail: 'tmux not found: the default backend cannot host a worker (--backend pty still can)', fix: FIX_TMUX });
  if (binary === null) missing.push({ name: 'claude', detail: 'Claude Code not found: --agent claude cannot start', fix: FIX_CLAUDE });
  return { claude, missing, ...(calibration && { calibration }) };
}
