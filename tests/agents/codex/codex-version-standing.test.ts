import { describe, expect, it } from 'vitest';
import { parseCodexVersion } from '../../../io/agent/codex/launch.ts';
import { codexCorpusStanding } from '../../../io/screen/profiles/codex.ts';
import { openTurnTailFor } from '../../../io/screen/profiles/codex-releases.ts';

describe('a Codex version is placed against the corpus, never guessed', () => {
  it('reads `codex-cli <v>` and nothing else', () => {
    expect(parseCodexVersion('codex-cli 0.169.0\n')).toBe('0.169.0');
    expect(parseCodexVersion('codex 0.169.0')).toBeNull();
    expect(parseCodexVersion('')).toBeNull();
  });

  it('in the corpus, newer (with the capture command as the fix), older, between', () => {
    expect(codexCorpusStanding('0.169.0')).toContain("in the reader's corpus");
    expect(codexCorpusStanding('0.172.0')).toContain('npm run capture -- --agent codex --version 0.172.0');
    expect(codexCorpusStanding('0.90.0')).toContain('older than');
    expect(codexCorpusStanding('0.165.0')).toContain('between');
    // Between two releases that draw a finished turn differently: the witness decides, and it says so.
    expect(codexCorpusStanding('0.145.0')).toContain('left to its notify');
  });

  it('what a turn without a status line means follows the captured releases, and "cannot tell" where they disagree', () => {
    const tails: [string | null, ReturnType<typeof openTurnTailFor>][] = [
      ['0.140.0', 'finished'],
      ['0.130.0', 'finished'],
      ['0.150.0', 'cannot-tell'],
      ['0.145.0', 'cannot-tell'],
      ['0.152.0', 'cannot-tell'],
      ['0.169.0', 'running'],
      ['0.180.0', 'running'],
      ['0.90.0', 'cannot-tell'],
      [null, 'running'],
    ];
    for (const [version, tail] of tails) expect(openTurnTailFor(version), `codex ${version}`).toBe(tail);
  });
});
