/**
 * A repository's own agent settings, read from commits (issue 37 item 3). Each agent profile
 * lists what its CLI reads from a project directory (`projectSettings`); this module reads those
 * files from a commit's tree (io/git/agent-settings-tree.ts: never the worktree or the index, so
 * `--skip-worktree` and other index tricks cannot hide one), names what each runs or grants, and
 * compares two commits: a landing that adds, changes or removes what a file runs or grants needs
 * the person's explicit word. A file that cannot be read is "present, unreadable", never "none".
 */
import { createHash } from 'node:crypto';
import { agentProfiles } from '../profiles/index.ts';
import { mergeBase, readBlob, settingsTree, type TreeEntry } from '../../git/agent-settings-tree.ts';
import { commitOf } from '../../git/run-git.ts';
import { SHOWN_CHANGES, SHOWN_GRANTS, type AgentSettingsChange, type AgentSettingsFile, type LandingAgentSettings, type RepoAgentSettings } from '../../../contract/methods/agent-settings.ts';
import type { ProjectSettingsSource, ReadGrant, SettingsFormat, SettingsReader } from './types.ts';
import { readClaudeSettings, readGeminiSettings, readHooksJson, readMcpJson } from './json-readers.ts';
import { readCodexConfig, readDotenv } from './other-readers.ts';
import { quoted } from './grant-words.ts';
import { summaryOf } from './summary.ts';

export type { ProjectSettingsSource, SettingsFormat } from './types.ts';

const READERS: Record<Exclude<SettingsFormat, 'opaque'>, SettingsReader> = {
  'claude-settings': readClaudeSettings,
  'mcp-json': readMcpJson,
  'hooks-json': readHooksJson,
  'codex-config': readCodexConfig,
  'gemini-settings': readGeminiSettings,
  dotenv: readDotenv,
};

/** A source as every profile that lists it reads it. */
export interface MergedSource extends ProjectSettingsSource {
  agents: string[];
}

/** Every profile's sources, one per path (the agents that read it named together). */
export function projectSettingsSources(): MergedSource[] {
  const byPath = new Map<string, MergedSource>();
  for (const p of agentProfiles()) {
    for (const s of p.projectSettings) {
      const had = byPath.get(s.path);
      if (had) {
        if (!had.agents.includes(p.label)) had.agents.push(p.label);
        // Two readers of one path: the stricter is opaque (any change needs the word).
        if (had.format !== s.format) had.format = 'opaque';
      } else byPath.set(s.path, { ...s, agents: [p.label] });
    }
  }
  return [...byPath.values()];
}

/** The source an entry falls under: its own file source first, else the deepest directory source. */
export function sourceFor(path: string, sources: readonly MergedSource[]): MergedSource | null {
  const lp = path.toLowerCase();
  const exact = sources.find((s) => !s.path.endsWith('/') && s.path.toLowerCase() === lp);
  if (exact) return exact;
  const dirs = sources.filter((s) => s.path.endsWith('/') && (lp.startsWith(s.path.toLowerCase()) || lp === s.path.slice(0, -1).toLowerCase()));
  return dirs.sort((a, b) => b.path.length - a.path.length)[0] ?? null;
}

/** One file as read at one commit: what is shown, plus what is compared. */
export interface SettingsReading extends AgentSettingsFile {
  /** The blob (or, for a cut listing, the tree) sha: equal means unchanged. */
  blob: string;
  /** What it runs and grants, as one hash (full values, secrets included, never shown). */
  digest: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const NOTHING = sha256('');
const grantsDigest = (grants: ReadGrant[]) => (grants.length === 0 ? NOTHING : sha256(grants.map((g) => g.canon).sort().join('\n')));
const shown = (grants: ReadGrant[]) => grants.map(({ kind, key, says }) => ({ kind, key, says }));

function unreadable(path: string, agents: string[], blob: string, reason: string): SettingsReading {
  const f: AgentSettingsFile = { path, agents, state: 'unreadable', reason, grants: [], inert: [], summary: '' };
  return { ...f, summary: summaryOf(f), blob, digest: `unreadable:${blob}` };
}

async function readEntry(repo: string, e: TreeEntry, source: MergedSource): Promise<SettingsReading> {
  const agents = [...source.agents];
  if (e.type === 'commit') return unreadable(e.path, agents, e.sha, `a submodule (commit ${e.sha.slice(0, 10)}): its files are not in this tree`);
  if (e.mode === '120000') {
    const target = await readBlob(repo, e.sha, 4096);
    return unreadable(e.path, agents, e.sha, `a symbolic link${target.ok ? ` to ${quoted(target.text)}` : ''}: the agent reads whatever it points to, kingshand does not follow it`);
  }
  if (source.format === 'opaque') {
    const grants = [{ kind: 'file' as const, key: e.path, says: quoted(e.path), canon: `file|${e.sha}` }];
    const f: AgentSettingsFile = { path: e.path, agents, state: 'present', grants: shown(grants), inert: [], summary: '' };
    return { ...f, summary: summaryOf(f), blob: e.sha, digest: grantsDigest(grants) };
  }
  const text = await readBlob(repo, e.sha);
  if (!text.ok) return unreadable(e.path, agents, e.sha, text.reason);
  const read = READERS[source.format](text.text);
  if (!read.ok) return unreadable(e.path, agents, e.sha, read.reason);
  const f: AgentSettingsFile = { path: e.path, agents, state: 'present', grants: shown(read.grants), inert: read.inert, summary: '' };
  return { ...f, summary: summaryOf(f), blob: e.sha, digest: grantsDigest(read.grants) };
}

/** The agent-settings files in `commit`'s tree, path order. */
export async function readAgentSettingsAt(repo: string, commit: string, sources: readonly MergedSource[] = projectSettingsSources()): Promise<SettingsReading[]> {
  const roots = [...new Set(sources.map((s) => s.path.split('/')[0]!))];
  const tree = await settingsTree(repo, commit, roots);
  const out: SettingsReading[] = [];
  for (const e of tree.entries) {
    const source = sourceFor(e.path, sources);
    if (source) out.push(await readEntry(repo, e, source));
  }
  for (const t of tree.truncated) {
    const source = sourceFor(`${t.root}/`, sources);
    out.push(unreadable(`${t.root}/`, source?.agents ?? [], t.sha, `more files under it than kingshand lists; none of them was read`));
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What is shown of a reading: no hashes, at most SHOWN_GRANTS grants (its summary counts them all). */
const publicFile = ({ blob: _b, digest: _d, ...f }: SettingsReading): AgentSettingsFile =>
  f.grants.length > SHOWN_GRANTS ? { ...f, grants: f.grants.slice(0, SHOWN_GRANTS), moreGrants: f.grants.length - SHOWN_GRANTS } : f;

/** At most SHOWN_CHANGES items, the ones needing the word first, and how many were left out. */
function bounded<T extends object>(items: T[]): { list: T[]; more?: number } {
  if (items.length <= SHOWN_CHANGES) return { list: items };
  const needs = (i: T) => !('needsWord' in i) || i.needsWord !== false;
  const ordered = [...items.filter(needs), ...items.filter((i) => !needs(i))];
  return { list: ordered.slice(0, SHOWN_CHANGES), more: items.length - SHOWN_CHANGES };
}

/** Pure: what differs between two commits' readings, in path order. */
export function compareReadings(before: readonly SettingsReading[], after: readonly SettingsReading[]): AgentSettingsChange[] {
  const b = new Map(before.map((r) => [r.path, r]));
  const a = new Map(after.map((r) => [r.path, r]));
  const paths = [...new Set([...b.keys(), ...a.keys()])].sort();
  const changes: AgentSettingsChange[] = [];
  for (const path of paths) {
    const was = b.get(path) ?? null;
    const now = a.get(path) ?? null;
    if (was && now && was.blob === now.blob) continue;
    const change = !was ? 'added' : !now ? 'removed' : 'changed';
    const needsWord = was?.state === 'unreadable' || now?.state === 'unreadable' || (was?.digest ?? NOTHING) !== (now?.digest ?? NOTHING);
    const agents = (now ?? was)!.agents;
    const said = `${path} ${change} (read by ${agents.join(', ') || 'an agent'}): before: ${was ? was.summary : 'absent'}; after: ${now ? now.summary : 'absent'}`;
    const describe = needsWord ? said : `${said} (nothing it runs or grants changed)`;
    changes.push({ path, agents, change, needsWord, before: was && publicFile(was), after: now && publicFile(now), describe });
  }
  return changes;
}

/** Names exactly the changes that need the word: an acceptance covers these blobs and no others. */
export function acceptanceDigest(before: readonly SettingsReading[], after: readonly SettingsReading[], changes: readonly AgentSettingsChange[]): string {
  const blobOf = (list: readonly SettingsReading[], path: string) => list.find((r) => r.path === path)?.blob ?? '-';
  const named = changes.filter((c) => c.needsWord).map((c) => `${c.path}\0${blobOf(before, c.path)}\0${blobOf(after, c.path)}`);
  return named.length ? sha256(named.join('\n')) : '';
}

/** What landing `head` onto `base` changes (the merge base's tree against the head's, as the diff is taken). */
export async function landingAgentSettings(repo: string, baseSha: string, headSha: string): Promise<LandingAgentSettings> {
  const sources = projectSettingsSources();
  const from = await mergeBase(repo, baseSha, headSha);
  const [before, after] = [await readAgentSettingsAt(repo, from, sources), await readAgentSettingsAt(repo, headSha, sources)];
  const changes = compareReadings(before, after);
  const shown = bounded(changes);
  return { changes: shown.list, ...(shown.more ? { more: shown.more } : {}), needsWord: changes.some((c) => c.needsWord), digest: acceptanceDigest(before, after, changes) };
}

/** What `ref` of the repository carries (annex), or why it could not be read. */
export async function repoAgentSettings(repo: string, ref: string | null): Promise<RepoAgentSettings> {
  if (ref === null) return { ref: null, sha: null, files: [], couldNotTell: 'no branch to read: the repository has no base workers would be cut from yet' };
  try {
    // One git process both checks and resolves the ref.
    const sha = await commitOf(repo, ref);
    if (sha === null) return { ref, sha: null, files: [], couldNotTell: `${ref} does not name a commit in ${repo}` };
    if (sha === 'unknown') return { ref, sha: null, files: [], couldNotTell: `git could not resolve ${ref} in ${repo}` };
    const shown = bounded((await readAgentSettingsAt(repo, sha)).map(publicFile));
    return { ref, sha, files: shown.list, ...(shown.more ? { more: shown.more } : {}), couldNotTell: null };
  } catch (err) {
    return { ref, sha: null, files: [], couldNotTell: `reading ${ref}'s tree failed: ${(err as Error).message}` };
  }
}
