/**
 * Rule: one question, one quotation (issue 38 item 11). For the same screen, `wait --json`'s
 * question was null for a Gemini worker and carried a "Reason: " prefix for a Codex one, while the
 * dialog's own question was clean in both: `hand wait`, `watch --needs-you`, survey and the page
 * each lifted it their own way. Now the question and options are lifted once (io/screen/asked.ts):
 * the dialog the agent's own reader found, else the screen's generic lines — and every face quotes
 * that one. Here on real captures of each agent, and through the daemon's faces on a live worker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi } from '../../io/screen/index.ts';
import { askedOf } from '../../io/screen/asked.ts';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const FIX = fileURLToPath(new URL('../fixtures/', import.meta.url));
const world = useDaemonWorld();

function capture(rel: string, agent: string) {
  const meta = JSON.parse(readFileSync(join(FIX, `${rel}.json`), 'utf8')) as { cols: number; rows: number };
  const screen = parseAnsi(readFileSync(join(FIX, `${rel}.ansi.txt`), 'utf8'), { cols: meta.cols, rows: meta.rows });
  return { reading: analyseScreen(screen, agent), text: screen.lines.map((l) => l.text).join('\n') };
}

describe('one question for every face', () => {
  it.each([
    ['codex-corpus/0.169.0/pty-approval', 'codex@0.169.0'],
    ['gemini-corpus/0.61.0/tmux-ask-user', 'gemini@0.61.0'],
  ])('%s: the question every face gets is the dialog its reader found, never a line lifted beside it', (rel, agent) => {
    const { reading, text } = capture(rel, agent);
    expect(reading.dialog, 'the agent reader reads a dialog').toBeTruthy();
    const asked = askedOf(reading.dialog, text);
    expect(asked.question).toBe(reading.dialog!.question || null);
    expect(asked.question ?? '').not.toMatch(/^Reason: /);
    expect(asked.options).toEqual(reading.dialog!.options.map((o) => `${o.n}. ${o.label}`));
  });

  it("a live worker's question reads the same in wait, watch --needs-you, survey and status's dialog", async () => {
    const w = await world('one-question', { annexYolo: true });
    const events: any[] = [];
    const watching = w.call('watch', { needsYou: true, timeoutMs: 60_000 }, { onProgress: (p) => events.push(p) }).catch(() => null);
    await w.dispatch('q1', 'MODE:ask');
    const waited = await w.call('wait', { id: 'q1', until: 'blocked', timeoutMs: 30_000 });
    const survey = await w.call('survey', {});
    const surveyed = survey.workers.find((x: any) => x.id === 'q1');
    const status = (await w.call('status', { id: 'q1' }))[0];
    const needs = events.find((e) => e.worker === 'q1' && e.need === 'blocked');
    expect(waited.question).toMatch(/^worker q1 wrote: "Which database should the fake project use\?"$/);
    expect(needs?.question, JSON.stringify(events)).toBe(waited.question);
    expect(surveyed.question).toBe(waited.question);
    expect(status.dialog.question).toBe(waited.question);
    expect(needs.options).toEqual(waited.options);
    expect(surveyed.options).toEqual(waited.options);
    await w.stop();
    await watching;
  }, 60_000);
});
