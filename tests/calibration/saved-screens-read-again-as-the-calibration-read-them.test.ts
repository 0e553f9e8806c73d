/**
 * The screens a failed calibration saves are evidence only if they read again exactly as the
 * calibration read them: written back from the Screen it judged (evidence.ts), every capture of
 * every corpus — Claude Code, Codex CLI and Gemini CLI, tmux and pty — parses to a screen the
 * agent's reader reads identically (state, box, reason, error, dialog, fingerprint), so
 * `hand screen inspect <file>.ansi.txt` in a bug report shows what kingshand saw.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, parseAnsi } from '../../io/screen/index.ts';
import { screenToAnsi, screenToPlain } from '../../daemon/calibration/evidence.ts';
import { corpusCaptures, type CorpusMeta } from '../helpers/corpus-files.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const CORPORA = [
  { agent: 'claude', dir: join(FIXTURES, 'claude-corpus') },
  { agent: 'codex', dir: join(FIXTURES, 'codex-corpus') },
  { agent: 'gemini', dir: join(FIXTURES, 'gemini-corpus') },
];

let withCursor = 0;

describe('saved screens read again as the calibration read them', () => {
  for (const { agent, dir } of CORPORA) {
    it(`every ${agent} capture, written back with its renditions, reads the same`, () => {
      const captures = corpusCaptures<CorpusMeta>(dir);
      expect(captures.length).toBeGreaterThan(10);
      const differ: string[] = [];
      let cursors = 0;
      for (const c of captures) {
        const reader = getProfile(`${agent}@${c.meta.version}`);
        const screen = parseAnsi(readFileSync(`${c.base}.ansi.txt`, 'utf8'));
        const again = parseAnsi(screenToAnsi(screen));
        if (JSON.stringify(reader.analyse(again)) !== JSON.stringify(reader.analyse(screen))) differ.push(c.name);
        if (screenToPlain(again) !== screenToPlain(screen)) differ.push(`${c.name} (plain)`);
        // An app's own cursor after blanks (what a trim removed) is kept where it was.
        if (JSON.stringify(again.lines.map((l) => l.cursorAt)) !== JSON.stringify(screen.lines.map((l) => l.cursorAt))) differ.push(`${c.name} (cursor)`);
        if (screen.lines.some((l) => l.cursorAt !== undefined)) cursors++;
      }
      expect(differ).toEqual([]);
      withCursor += cursors;
    });
  }
  it('the corpora hold screens with a cursor after blanks, so the cursor check above is not empty', () => {
    expect(withCursor).toBeGreaterThan(0);
  });
});
