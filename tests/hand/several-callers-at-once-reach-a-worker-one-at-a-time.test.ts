/**
 * Rule: several callers at once reach a worker one at a time (issue 43). Three `send` calls from
 * three MCP servers at once reached one worker as the single prompt `charlie1bravo1alpha1`, each
 * caller told "sent, confirmed"; three identical `answer 2 --fingerprint <fp>` calls all answered,
 * six keys and three Enters. Now everything that types into a worker waits its turn in the
 * worker's lane: each text arrives whole as its own prompt, and of three identical answers one
 * answers and the other two are refused, naming the answer that was first — no key pressed.
 * Each call here is its own connection to the daemon, as three MCP servers' would be.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const world = useDaemonWorld();
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('several callers at once reach a worker one at a time', () => {
  it('three sends at once arrive as three whole prompts', async () => {
    const w = await world('lane-sends', { annexYolo: true });
    const log = join(w.root, 'events.log');
    await w.dispatch('s1', 'Say hello.', { env: { ...w.env, KH_MOCK_EVENT_LOG: log, KH_MOCK_REPLY_MS: '100' } });
    await w.call('wait', { id: 's1', until: 'settled', timeoutMs: 30_000 });
    const texts = ['alpha1', 'bravo1', 'charlie1'];
    const sent = await Promise.allSettled(texts.map((text) => w.call('send', { id: 's1', text })));
    const started = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.event === 'turn-started').map((e) => e.promptSha256 as string);
    await w.call('wait', { id: 's1', until: 'settled', timeoutMs: 30_000 });
    const prompts = started().slice(1); // the first was the dispatch's own prompt
    // Whatever was accepted arrived whole: never a mix of two callers' keys.
    const whole = new Set(texts.map(sha));
    for (const p of prompts) expect(whole.has(p), `a prompt that is none of the three texts (${p.slice(0, 12)}): keys of two callers mixed`).toBe(true);
    const accepted = sent.filter((s) => s.status === 'fulfilled').length;
    expect(prompts.length, `each accepted send is one prompt (${sent.map((s) => s.status === 'rejected' ? (s.reason as Error).message.slice(0, 120) : 'sent').join(' | ')})`).toBe(accepted);
    expect(accepted).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('three identical answers at once: one answers, two are refused naming it, and only one answer is pressed', async () => {
    const w = await world('lane-answers', { annexYolo: true });
    await w.dispatch('q1', 'MODE:ask');
    const blocked = await w.call('wait', { id: 'q1', until: 'blocked', timeoutMs: 30_000 });
    const fp = blocked.dialog.fingerprint as string;
    const results = await Promise.allSettled([1, 2, 3].map(() => w.call('answer', { id: 'q1', option: 2, fingerprint: fp })));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as { code: string; message: string; details: any });
    expect(ok, JSON.stringify(refused)).toHaveLength(1);
    expect(refused.map((r) => r.code)).toEqual(['dialog-answered', 'dialog-answered']);
    for (const r of refused) {
      expect(r.message).toMatch(/was already answered — 2\. worker q1 wrote: ".+" at \d{4}-/);
      expect(r.details.pressed).toEqual([]);
    }
    const answered = (ok[0] as PromiseFulfilledResult<any>).value;
    expect(answered.keys.filter((k: string) => k === 'enter')).toHaveLength(1);
  }, 90_000);
});
