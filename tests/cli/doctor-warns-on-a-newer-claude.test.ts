/**
 * `hand doctor` warns (an optional check, never a failure) when the installed Claude Code is
 * newer than the newest version whose screens are in the corpus.
 */
import { describe, expect, it } from 'vitest';
import { claudeNewerThanCorpus } from '../../cli/commands/doctor.ts';
import { newestCorpusVersion } from '../../io/screen/index.ts';

describe('hand doctor and the screen corpus', () => {
  it('a version newer than the corpus gets an optional warning naming both versions and the capture command', () => {
    const check = claudeNewerThanCorpus('9.0.1 (Claude Code)');
    expect(check).toMatchObject({ name: 'claude screens', ok: false, optional: true });
    expect(check!.detail).toContain('9.0.1');
    expect(check!.detail).toContain(newestCorpusVersion());
    expect(check!.fix).toContain('npm run capture -- --claude 9.0.1');
  });

  it('the newest corpus version, an older one, or no answer gives no warning', () => {
    expect(claudeNewerThanCorpus(`${newestCorpusVersion()} (Claude Code)`)).toBeNull();
    expect(claudeNewerThanCorpus('2.0.0 (Claude Code)')).toBeNull();
    expect(claudeNewerThanCorpus(null)).toBeNull();
    expect(claudeNewerThanCorpus('garbage')).toBeNull();
  });
});
