/**
 * Whether a worker that was settled shows it took a prompt just sent. A settled worker whose
 * screen changes while it stays idle — the box emptied by the Enter, before the agent draws its
 * spinner — re-checks its report (`settled.checking`, condition `checking`) and is settled again
 * a moment later: that blip is the old turn, not the new one. `hand send` answered on it, and a
 * `hand wait --until settled` right after returned on the finished turn while the new one ran
 * (2 of 30 in-process runs; the stop that followed typed /exit into a busy agent).
 */
import type { Condition } from '../contract/vocabulary.ts';

const STILL_THE_OLD_TURN: ReadonlySet<Condition> = new Set<Condition>(['settled', 'checking']);

export const tookThePrompt = (view: { condition: Condition }): boolean => !STILL_THE_OLD_TURN.has(view.condition);
