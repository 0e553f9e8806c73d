/**
 * The calibration hears the agent's hook witness where a worker's hooks speak (the voice socket of
 * its throwaway state directory), through the same `hand hook` a worker runs — and only that
 * agent: a note without the run's capability, a note for another worker with that worker's
 * capability, junk and other methods are refused and heard as nothing (attacked here as a
 * process inside the sandbox could: it reaches the socket, never the capability key).
 */
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { homePaths } from '../../contract/home.ts';
import { callUnchecked, RemoteError } from '../../cli/client.ts';
import { runHook } from '../../cli/commands/hook.ts';
import { hookCapability } from '../../io/agent/claude/hook-capability.ts';
import { listenForWitness } from '../../daemon/calibration/witness-listener.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';

const tempDir = useTempDirs();
const ID = 'calibrate-codex';

describe("the calibration's ear hears only its own agent", () => {
  it('the real hook with the run\'s capability is heard with its word; forged, foreign and junk notes are refused and not heard', async () => {
    const state = tempDir('calibration-ear');
    const ear = await listenForWitness(state, ID);
    try {
      const voice = { ...homePaths(state), socket: homePaths(state).voiceSocket };
      const at = Date.now();
      // No capability: what a process that only reaches the socket can send.
      await expect(callUnchecked(voice, 'hook', { note: { id: ID, event: 'Stop', at } }, { autostart: false })).rejects.toMatchObject({ code: 'hook-not-yours' });
      // Another worker's capability is no good for this one.
      await expect(callUnchecked(voice, 'hook', { note: { id: ID, event: 'Stop', at, cap: hookCapability(state, 'someone-else') } }, { autostart: false })).rejects.toBeInstanceOf(RemoteError);
      await expect(callUnchecked(voice, 'hook', { note: { id: 'someone-else', event: 'Stop', at, cap: hookCapability(state, 'someone-else') } }, { autostart: false })).rejects.toMatchObject({ code: 'hook-not-yours' });
      await expect(callUnchecked(voice, 'status', {}, { autostart: false })).rejects.toMatchObject({ code: 'hook-not-yours' });
      const junk = createConnection(voice.socket);
      await new Promise<void>((resolve) => junk.once('connect', () => resolve()));
      const answer = new Promise<string>((resolve) => junk.once('data', (d) => resolve(String(d))));
      junk.write('not json\n');
      expect(JSON.parse(await answer)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
      junk.destroy();
      expect(ear.notes).toEqual([]);

      // The hook a worker runs, with what its launch gives it: heard, with the witness's word.
      const r = await runHook('Stop', { home: state, env: { HAND_WORKER_ID: ID, HAND_HOOK_CAP: hookCapability(state, ID) }, payload: '{"type":"agent-turn-complete"}' });
      expect(r).toEqual({ delivered: true, queued: false });
      expect(ear.notes.map((n) => [n.note.event, n.word])).toEqual([['Stop', 'idle']]);
      expect(ear.wordsSince(at)).toEqual(['idle']);
    } finally {
      await ear.close();
    }
  });
});
