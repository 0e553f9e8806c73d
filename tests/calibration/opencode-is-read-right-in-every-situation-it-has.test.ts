/**
 * `hand doctor --calibrate` passes for the pinned OpenCode (issue 45): its real binary against the
 * fake Anthropic API in a throwaway home (the calibration kit's fakeProviderSetup), each situation
 * it has read as what it is, and its witness plugin heard where it speaks.
 */
import { calibratesAsPinned } from './calibration-run.ts';
import { OPENCODE_PINNED } from '../../io/agent/opencode/binary.ts';
import { opencodeBinaryFor } from '../harness/real-opencode.ts';

calibratesAsPinned({ agent: 'opencode', label: 'OpenCode', pinned: OPENCODE_PINNED, witness: 'plugin', env: () => ({ HAND_OPENCODE_BIN: opencodeBinaryFor() }) });
