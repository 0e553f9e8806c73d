/**
 * A session start is told where the Claude Code that workers will run stands against the
 * versions the screen reader was scored on (the capture corpus), and which prerequisites
 * `hand doctor` checks are missing, each with its fix (issue 22, digest and survey).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { claudeStanding, setupFacts, FIX_GIT, FIX_TMUX } from '../../io/agent/setup-facts.ts';
import { CORPUS_VERSIONS } from '../../io/screen/profiles/claude-versions.ts';
import { setupLines } from '../../cli/commands/picture-text.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();

describe('the Claude Code version line against the corpus', () => {
  it('says whether the version was scored, which scored version reads a version between, and the capture fix past the newest', () => {
    expect(claudeStanding('/bin/claude', '2.1.332')).toMatchObject({ standing: 'in-corpus', readWith: '2.1.332', line: expect.stringContaining(`scored on ${CORPUS_VERSIONS.length} versions, 1.0.0 … 2.1.332`) });
    expect(claudeStanding('/bin/claude', '2.1.300')).toMatchObject({ standing: 'between', readWith: '2.1.197', line: expect.stringContaining("read with 2.1.197's screens") });
    const newer = claudeStanding('/bin/claude', '2.2.0');
    expect(newer).toMatchObject({ standing: 'newer', readWith: '2.1.332' });
    expect(newer.line).toContain('newer than the reader\'s corpus (newest 2.1.332)');
    expect(newer.line).toContain('npm run capture -- --claude 2.2.0');
    expect(claudeStanding('/bin/claude', '1.0.0')).toMatchObject({ standing: 'in-corpus', readWith: '1.0.0' });
    expect(claudeStanding('/bin/claude', '1.0.60')).toMatchObject({ standing: 'between', readWith: '1.0.0' });
    expect(claudeStanding('/bin/claude', '0.2.125')).toMatchObject({ standing: 'older', readWith: '1.0.0' });
    expect(claudeStanding('/bin/claude', null)).toMatchObject({ standing: 'unknown-version', line: expect.stringContaining('/bin/claude did not say its version') });
    expect(claudeStanding(null, null)).toMatchObject({ standing: 'missing', line: expect.stringContaining('npm install --save-exact @anthropic-ai/claude-code@2.1.332') });
  });
});

describe('missing prerequisites', () => {
  it('names git and tmux missing from the PATH workers are started with, each with the fix doctor prints', async () => {
    const root = tempDir('setup-facts');
    const bare = join(root, 'bin');
    mkdirSync(bare);
    const facts = await setupFacts({ PATH: bare, HOME: root });
    expect(facts.missing.map((m) => m.name)).toEqual(['git', 'tmux']);
    expect(facts.missing.find((m) => m.name === 'git')!.fix).toBe(FIX_GIT);
    expect(facts.missing.find((m) => m.name === 'tmux')!.fix).toBe(FIX_TMUX);
    // The pinned Claude Code in node_modules is what a dispatch starts, PATH or not.
    expect(facts.claude).toMatchObject({ standing: 'in-corpus', version: '2.1.332' });
    const lines = setupLines(facts);
    expect(lines).toEqual([
      expect.stringMatching(/^MISSING git: git not found.*; fix: sudo apt-get install -y git/),
      expect.stringMatching(/^MISSING tmux: tmux not found.*; fix: sudo apt-get install -y tmux/),
      expect.stringMatching(/^CLAUDE CODE: Claude Code 2\.1\.332: its screens are in the reader's corpus/),
    ]);
  });

  it('nothing missing when git and tmux are on the PATH; a missing agent binary is said once, as missing', async () => {
    const root = tempDir('setup-facts-ok');
    const bin = join(root, 'bin');
    mkdirSync(bin);
    for (const tool of ['git', 'tmux']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    expect((await setupFacts({ PATH: bin, HOME: root })).missing).toEqual([]);
    const noClaude = { claude: claudeStanding(null, null), missing: [{ name: 'claude' as const, detail: 'Claude Code not found: --agent claude cannot start', fix: 'npm install --save-exact @anthropic-ai/claude-code@2.1.332' }] };
    expect(setupLines(noClaude)).toEqual(['MISSING claude: Claude Code not found: --agent claude cannot start; fix: npm install --save-exact @anthropic-ai/claude-code@2.1.332']);
  });
});
