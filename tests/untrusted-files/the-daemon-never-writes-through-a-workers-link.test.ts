/**
 * Rule: the daemon never writes through a link a worker planted (issue 37 probe case 3). With
 * progress-note.md linked to a file of the person's, `hand relaunch` overwrote that file. The
 * daemon's files for a worker are made by atomic create (a fresh name opened O_EXCL|O_NOFOLLOW,
 * renamed over whatever is at the name), so a planted link is replaced, never written through.
 * Real daemon, tmux and the mock agent; the links are planted where a worker would plant them.
 */
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchSettled, useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('the daemon never writes through a link a worker planted', () => {
  it("progress-note.md linked to the person's file: hand relaunch leaves that file as it was", async () => {
    const w = await makeWorld('note-link');
    const persons = join(w.root, 'persons-file.txt');
    writeFileSync(persons, 'the person wrote this\n');
    const d = await dispatchSettled(w, 'w1', 'Say hi.');
    const notePath = join(dirname(d.briefPath), 'progress-note.md');
    symlinkSync(persons, notePath);

    const r = await w.hand(['relaunch', 'w1', '--note', 'carry on', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(persons, 'utf8'), "the person's file").toBe('the person wrote this\n');
    expect(r.json.progressNotePath).toBe(notePath);
    expect(lstatSync(notePath).isFile(), 'the link was replaced by the note, a file of its own').toBe(true);
    expect(readFileSync(notePath, 'utf8')).toContain('carry on');
    expect(lstatSync(notePath).mode & 0o777).toBe(0o600);
  });
});
