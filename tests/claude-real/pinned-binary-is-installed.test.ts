import { expect, it } from 'vitest';
import { PINNED_CLAUDE_VERSION, requireClaudeBinary } from '../harness/claude-binary.ts';

// A missing binary must fail loudly here (with how to fix it), never skip the suite.
it('the pinned Claude Code binary is installed and reports its pinned version', () => {
  expect(PINNED_CLAUDE_VERSION).toBe('2.1.332');
  expect(requireClaudeBinary()).toMatch(/claude/);
});
