/**
 * Rule: on another host too, the daemon never follows a link a worker made (issue 37 item 2). The
 * far report is read there by a constant script (the path an argument, never inside a shell
 * string): a link, a FIFO or another name for a file is refused there, with why, and nothing of
 * what it points at comes back; a file the daemon writes into the far worker's directory (its
 * progress note, brief, policy) replaces a link planted at its name instead of writing through it.
 * A real sshd and a second local account are the far side (tests/harness/far-shop.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { handOk, type HandOk } from '../helpers/cli-world.ts';
import { stopAfter, type TestSshd } from '../harness/sshd.ts';
import { addFarHost, startFarShop } from '../harness/far-shop.ts';
import { reviewSession } from '../helpers/review-session.ts';

const MARKER = 'FAR-SECRET-KEY-MATERIAL-41d7';

/** A command as the far account (its own uid, its HOME). */
function asFar(sshd: TestSshd, ...argv: string[]): string {
  return execFileSync('runuser', ['-u', sshd.user, '--', 'env', `HOME=${sshd.home}`, 'PATH=/usr/bin:/bin', ...argv], { encoding: 'utf8' });
}

describe("a far worker's links lead the daemon nowhere", () => {
  let sshd: TestSshd;
  let w: CliWorld;
  let ok: HandOk;

  beforeAll(async () => {
    const far = await startFarShop();
    ({ sshd } = far);
    w = await makeCliWorld('far-links');
    ok = handOk(w);
    await addFarHost(w, far);
    await ok(['annex', w.repo, '--name', 'shop', '--yolo', '--permissions', 'edits']); // posture off is refused on a far host (no sandbox there)
    await ok(['project', 'host', 'shop', 'far', far.repo, '--default']);
    // The far person's key and a file of theirs.
    asFar(sshd, 'sh', '-c', `cd "$HOME" && mkdir -p .ssh && printf '%s\\n' '-----BEGIN OPENSSH PRIVATE KEY-----' '${MARKER}' > .ssh/id_ed25519 && printf 'theirs\\n' > notes.txt`);
  }, 60_000);
  afterAll(() => stopAfter(w, sshd));

  it('a far report linked to the far key is refused there, with why; a relaunch writes its note over a planted link, not through it', async () => {
    const d = await ok(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'Say hi.'), '--agent', 'mock']);
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s']);
    const farDir = join(sshd.home, '.kingshand', 'workers', 'w1');
    expect(lstatSync(join(farDir, 'out')).isDirectory(), 'the far worker has its out/ there').toBe(true);
    // What the far worker would do: its report is a link to the far key, its progress note a link to a file of the person's there.
    asFar(sshd, 'ln', '-s', join(sshd.home, '.ssh', 'id_ed25519'), join(farDir, 'out', 'report.md'));
    asFar(sshd, 'ln', '-s', join(sshd.home, 'notes.txt'), join(farDir, 'progress-note.md'));
    await ok(['send', 'w1', 'Say hi again.']);
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s']);

    const row = (await ok(['status', 'w1']))[0];
    expect(row.reportExists).toBe(false);
    expect(row.problem).toMatch(/refused.*symbolic link/);
    expect(existsSync(d.reportPath) ? readFileSync(d.reportPath, 'utf8') : '').not.toContain(MARKER);
    const page = await (await reviewSession(w.hand)).get('/w/w1');
    expect(page.text).not.toContain(MARKER);

    const r = await ok(['relaunch', 'w1', '--note', 'carry on']);
    expect(JSON.stringify(r)).not.toContain(MARKER);
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s']);
    expect(readFileSync(join(sshd.home, 'notes.txt'), 'utf8'), "the far person's file").toBe('theirs\n');
    expect(lstatSync(join(farDir, 'progress-note.md')).isFile(), 'the note there is a file of its own').toBe(true);
    expect(readFileSync(join(farDir, 'progress-note.md'), 'utf8')).toContain('carry on');
    expect(readFileSync(join(farDir, 'progress-note.md'), 'utf8')).not.toContain(MARKER);
    // The linked report went aside there as a link; the key is as it was.
    expect(lstatSync(join(farDir, 'out', 'report-before-relaunch-1.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(sshd.home, '.ssh', 'id_ed25519'), 'utf8')).toContain(MARKER);
  }, 90_000);
});
