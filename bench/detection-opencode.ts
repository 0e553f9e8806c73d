/** Blocked detection for OpenCode on tmux (issue 45): bench/lib/anthropic-agent-detection.ts with OpenCode's facts. */
import type { BenchResult } from './types.ts';
import { runAnthropicAgentDetection } from './lib/anthropic-agent-detection.ts';
import { fakeProviderSetup } from '../io/agent/opencode/calibration-kit.ts';
import { OPENCODE_PINNED } from '../io/agent/opencode/binary.ts';
import { opencodeBinaryFor, opencodeTestEnv } from '../tests/harness/real-opencode.ts';

export function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  return runAnthropicAgentDetection({
    agent: 'opencode', label: `OpenCode ${OPENCODE_PINNED}`, binEnv: { HAND_OPENCODE_BIN: opencodeBinaryFor() },
    setup: fakeProviderSetup, testEnv: opencodeTestEnv, questionTool: 'question',
  }, opts);
}
