/**
 * The calibration's own ear for the agent's hook witness: it listens where a worker's hooks speak
 * (`<state>/voice/hand.sock` of the calibration's throwaway state directory, the one place of it
 * the worker's sandbox shows), answers the `hook` method as the daemon does, and keeps each note
 * with the word it carries (actors/witness.ts). A note without the run's capability is refused,
 * as the daemon refuses it. Nothing else is served.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync } from 'node:fs';
import { lineSplitter } from '../../contract/protocol.ts';
import { parseNote, type HookNote } from '../../contract/hook-note.ts';
import type { HookWord } from '../../contract/methods/fleet.ts';
import { homePaths } from '../../contract/home.ts';
import { isWorkersCapability } from '../../io/agent/claude/hook-capability.ts';
import { ensureVoiceDir } from '../../io/sandbox/worker-sandbox.ts';
import { wordOf } from '../../actors/witness.ts';
import { MAX_REQUEST_LINE } from '../server.ts';

export interface HeardNote {
  note: HookNote;
  word: HookWord | null;
  /** When it reached the calibration (ms since the epoch). */
  heardAt: number;
}

export interface WitnessListener {
  notes: HeardNote[];
  /** The words heard at or after `since`, in order. */
  wordsSince(since: number): HookWord[];
  close(): Promise<void>;
}

export async function listenForWitness(stateDir: string, workerId: string): Promise<WitnessListener> {
  ensureVoiceDir(stateDir);
  const socket = homePaths(stateDir).voiceSocket;
  const notes: HeardNote[] = [];
  const open = new Set<Socket>();
  const server: Server = createServer((sock) => {
    open.add(sock);
    sock.on('close', () => open.delete(sock));
    sock.on('error', () => sock.destroy());
    const answer = (obj: unknown) => {
      if (!sock.destroyed) sock.write(`${JSON.stringify(obj)}\n`);
    };
    sock.on('data', lineSplitter((line) => {
      let req: { id?: unknown; method?: unknown; params?: { note?: unknown } };
      try {
        req = JSON.parse(line) as typeof req;
      } catch {
        return answer({ id: 0, ok: false, error: { code: 'bad-request', message: 'request is not JSON', exitCode: 2 } });
      }
      const id = typeof req.id === 'number' ? req.id : 0;
      const note = req.method === 'hook' ? parseNote(req.params?.note) : null;
      if (note === null || note.id !== workerId || !isWorkersCapability(stateDir, workerId, note.cap)) {
        return answer({ id, ok: false, error: { code: 'hook-not-yours', message: 'not a hook note of this calibration', exitCode: 2 } });
      }
      notes.push({ note, word: wordOf(note), heardAt: Date.now() });
      answer({ id, ok: true, result: { id: workerId, condition: 'busy', hookReason: null, disputed: null } });
    }, MAX_REQUEST_LINE, () => sock.destroy()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      chmodSync(socket, 0o600);
      resolve();
    });
  });
  return {
    notes,
    wordsSince: (since) => notes.filter((n) => n.heardAt >= since && n.word !== null).map((n) => n.word!),
    close: () => {
      // A hook still connected (one that hangs) must not hold the calibration's end.
      for (const sock of open) sock.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
