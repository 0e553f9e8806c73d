/** Blocked detection for Qwen Code on tmux (issue 45): bench/lib/anthropic-agent-detection.ts with Qwen Code's facts (its Anthropic auth). */
import type { BenchResult } from './types.ts';
import { runAnthropicAgentDetection } from './lib/anthropic-agent-detection.ts';
import { fakeQwenSetup } from '../io/agent/qwen/calibration-kit.ts';
import { QWEN_PINNED } from '../io/agent/qwen/binary.ts';
import { qwenBinaryFor, qwenTestEnv } from '../tests/harness/real-qwen.ts';

export function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  return runAnthropicAgentDetection({
    agent: 'qwen', label: `Qwen Code ${QWEN_PINNED}`, binEnv: { HAND_QWEN_BIN: qwenBinaryFor() },
    setup: fakeQwenSetup, testEnv: qwenTestEnv, questionTool: 'ask_user_question',
  }, opts);
}
