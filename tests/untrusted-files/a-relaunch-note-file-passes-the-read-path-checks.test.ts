/**
 * Rule: `hand relaunch --note <file>` hands a worker a file only where `--read-path` would (issue
 * 37 probe case 3). The note file was read by the CLI and copied into the worker's progress note
 * whatever it was: a credential-shaped file, a hard link to ~/.ssh/id_ed25519, /proc/self/environ
 * (the caller's whole environment). Each is refused before anything happens: the worker is not
 * stopped and no progress note is written. An ordinary note file still goes in.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dispatchSettled, useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('a relaunch note file passes the read-path checks', () => {
  it('a credential-shaped file, a hard link to a key, /proc/self/environ and a FIFO are refused before anything is done', async () => {
    const w = await makeWorld('note-checks');
    const key = join(w.agentHome, '.ssh', 'id_ed25519');
    mkdirSync(dirname(key), { recursive: true, mode: 0o700 });
    writeFileSync(key, 'a key only by its place\n', { mode: 0o600 });
    const tokenShaped = join(w.root, 'notes.md');
    writeFileSync(tokenShaped, `Use this: ghp_${'a'.repeat(36)}\n`);
    const linked = join(w.root, 'harmless-notes.md');
    linkSync(key, linked);
    const fifo = join(w.root, 'note.fifo');
    execFileSync('mkfifo', [fifo]);
    const d = await dispatchSettled(w, 'w1', 'Say hi.');
    const notePath = join(dirname(d.briefPath), 'progress-note.md');
    const before = (await w.hand(['status', 'w1', '--json'])).json[0];

    for (const [file, why] of [
      [tokenShaped, /GitHub token/],
      [linked, /same file \(device \d+, inode \d+\)/],
      ['/proc/self/environ', /\/proc/],
      [fifo, /not a regular file/],
    ] as const) {
      const r = await w.hand(['relaunch', 'w1', '--note', file, '--json'], { timeoutMs: 15_000 });
      expect(r.code, `${file}: ${r.stdout}${r.stderr}`).not.toBe(0);
      expect(r.json.error.code, file).toMatch(/^(read-path-denied|not-a-file)$/);
      expect(r.json.error.message, file).toMatch(why);
      expect(r.json.error.message, 'the refusal names the flag').toContain('--note');
    }
    expect(existsSync(notePath), 'no progress note was written').toBe(false);
    const after = (await w.hand(['status', 'w1', '--json'])).json[0];
    expect(after.stage, 'the worker was not stopped').toBe(before.stage);
    expect(after.live).toBe(true);

    // An ordinary note file is read and carried, as before.
    const plain = join(w.root, 'plain-note.md');
    writeFileSync(plain, 'The tests were flaky; skip the slow suite.\n');
    const r = await w.hand(['relaunch', 'w1', '--note', plain, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(r.json.progressNotePath, 'utf8')).toContain('skip the slow suite');
    expect(r.json.firstPrompt).toContain('skip the slow suite');
  });
});
