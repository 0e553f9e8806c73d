import { describe, expect, it } from 'vitest';
import { parseCodexVersion } from '../../../io/agent/codex/launch.ts';
import { codexCorpusStanding } from '../../../io/screen/profiles/codex.ts';

describe('a Codex version is placed against the corpus, never guessed', () => {
  it('reads `codex-cli <v>` and nothing else', () => {
    expect(parseCodexVersion('codex-cli 0.169.0\n')).toBe('0.169.0');
    expect(parseCodexVersion('codex 0.169.0')).toBeNull();
    expect(parseCodexVersion('')).toBeNull();
  });

  it('in the corpus, newer (with the capture command as the fix), older, between', () => {
    expect(codexCorpusStanding('0.169.0')).toContain("in the reader's corpus");
    expect(codexCorpusStanding('0.170.2')).toContain('npm run capture -- --agent codex --version 0.170.2');
    expect(codexCorpusStanding('0.150.0')).toContain('older than');
    expect(codexCorpusStanding('0.165.0')).toContain('between');
  });
});
