/**
 * Codex's exec_command answers after its yield time (10 s by default) even when the command has
 * not ended ("Process running with session ID N"); a model then waits for it with write_stdin.
 * The fake model does the same before it takes the next scripted step: on a loaded machine the
 * isolation probe outlived the yield, the turn ended, and the test read the probe's output
 * half-written. (Seen against the real Codex 0.169.0: `sleep 12 && touch` settled before the
 * file was there without this, and after it with it.)
 */
import { describe, expect, it } from 'vitest';
import { chooseCodexReply, runningSessionOf, WAIT_FOR_COMMAND_MS, type CodexScriptItem } from '../../../io/fake-model/codex/script.ts';
import type { RequestSummary } from '../../../io/fake-model/codex/request-summary.ts';

// What Codex 0.169.0 returned for a command still running at its yield, and for one that ended.
const RUNNING = 'Chunk ID: 6d6a8c\nWall time: 10.0021 seconds\nProcess running with session ID 54435\nOriginal token count: 0\nOutput:\n';
const EXITED = 'Chunk ID: 2cd144\nWall time: 1.8323 seconds\nProcess exited with code 0\nOriginal token count: 0\nOutput:\n';

const afterTool = (output: string): RequestSummary => ({
  model: 'gpt-fake', stream: true, side: false, toolNames: ['exec_command', 'write_stdin'], lastUserText: 'Run the probe.',
  lastItem: 'tool-output', toolOutputs: [{ callId: 'call_fake_1', output }],
});

describe('the fake Codex model waits out a command Codex left running', () => {
  it('a running command is waited for with write_stdin before the queued step, which comes after it ends', () => {
    const queued: CodexScriptItem[] = [{ kind: 'text', text: 'All done.' }];
    expect(chooseCodexReply(afterTool(RUNNING), queued)).toEqual({ kind: 'call', name: 'write_stdin', args: { session_id: 54435, chars: '', yield_time_ms: WAIT_FOR_COMMAND_MS } });
    expect(queued, 'the queued step is still there').toHaveLength(1);
    expect(chooseCodexReply(afterTool(EXITED), queued)).toEqual({ kind: 'text', text: 'All done.' });
  });

  it('only the last tool output counts, and only after a tool output', () => {
    expect(runningSessionOf(afterTool(EXITED))).toBeNull();
    const both = { ...afterTool(EXITED), toolOutputs: [{ callId: 'a', output: RUNNING }, { callId: 'b', output: EXITED }] };
    expect(runningSessionOf(both), 'an earlier running output that has since ended').toBeNull();
    expect(runningSessionOf({ ...afterTool(RUNNING), lastItem: 'user' }), 'a new user message').toBeNull();
  });
});
