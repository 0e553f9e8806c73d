/**
 * `hand doctor --calibrate` passes for the pinned Qwen Code (issue 45): its real binary against
 * the fake Anthropic API in a throwaway home (the calibration kit's fakeQwenSetup), each situation
 * it has read as what it is, and its hooks heard where they speak.
 */
import { calibratesAsPinned } from './calibration-run.ts';
import { QWEN_PINNED } from '../../io/agent/qwen/binary.ts';
import { qwenBinaryFor } from '../harness/real-qwen.ts';

calibratesAsPinned({ agent: 'qwen', label: 'Qwen Code', pinned: QWEN_PINNED, witness: 'hooks', env: () => ({ HAND_QWEN_BIN: qwenBinaryFor() }) });
