/**
 * Rule: the daemon never follows a link a worker made (issue 37 probe case 3). A worker linked
 * its report.md to the person's ~/.ssh/id_ed25519; the key then appeared on the review page, in
 * `hand relaunch`'s result and in the relaunched worker's progress note. Here (real daemon, tmux,
 * the mock agent) the link is planted where the worker writes its report, the worker settles on
 * it, and every face is read: the key is nowhere, and the report reads as refused — a link — with
 * that reason, never as "no report".
 */
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchSettled, handOk, useCliWorld } from '../helpers/cli-world.ts';
import { reviewSession } from '../helpers/review-session.ts';

const makeWorld = useCliWorld();

/** A private key shape with a marker no other text in the world holds. */
const MARKER = 'SECRET-KEY-MATERIAL-7f3a91c2';
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARKER}\n-----END OPENSSH PRIVATE KEY-----\n`;

describe('a linked report is refused, never followed', () => {
  it('report.md linked to ~/.ssh/id_ed25519: the key is on no face; the report reads as refused (a link)', async () => {
    const w = await makeWorld('linked-report');
    const ok = handOk(w);
    const key = join(w.agentHome, '.ssh', 'id_ed25519');
    mkdirSync(dirname(key), { recursive: true, mode: 0o700 });
    writeFileSync(key, KEY, { mode: 0o600 });

    const d = await dispatchSettled(w, 'w1', 'Say hi.');
    // What the worker would do: its report is a link to the person's key.
    mkdirSync(dirname(d.reportPath), { recursive: true });
    symlinkSync(key, d.reportPath);
    // A new turn settles again, and the daemon looks at the report.
    await ok(['send', 'w1', 'Say hi again.']);
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s']);

    const page = await (await reviewSession(w.hand)).get('/w/w1');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(MARKER);
    expect(page.text, 'the page says the report was refused and why').toMatch(/refused[^<]*symbolic link/i);
    expect(page.text).not.toContain('No report yet.');

    const status = await w.hand(['status', 'w1', '--json']);
    expect(status.stdout).not.toContain(MARKER);
    expect(status.json[0].reportExists, 'a refused report is not a report').toBe(false);
    expect(status.json[0].problem, 'the refusal is said where the report would be').toMatch(/refused.*symbolic link/i);
    for (const args of [['survey'], ['digest']]) {
      const r = await w.hand([...args, '--json']);
      expect(r.stdout + r.stderr, args[0]).not.toContain(MARKER);
    }

    const r = await w.hand(['relaunch', 'w1', '--note', 'carry on', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain(MARKER);
    expect(r.json.previousReport).toBeNull();
    expect(r.json.previousReportRefused).toMatch(/symbolic link/);
    expect(r.json.firstPrompt).not.toContain(MARKER);
    const note = readFileSync(r.json.progressNotePath, 'utf8');
    expect(note).not.toContain(MARKER);
    expect(note, 'the progress note says the previous report was refused, not that there was none').toMatch(/refused.*symbolic link/i);
    expect(note).not.toContain('(no report was written)');

    // The relaunched worker reads its brief and its note and settles: nothing of the key on its screen.
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s']);
    const screen = await w.hand(['read', 'w1']);
    expect(screen.stdout).not.toContain(MARKER);
    // The link was moved aside as a link (nothing followed), and the key is as it was.
    expect(readFileSync(key, 'utf8')).toBe(KEY);
    expect(() => lstatSync(d.reportPath)).toThrow(/ENOENT/);
  });
});
