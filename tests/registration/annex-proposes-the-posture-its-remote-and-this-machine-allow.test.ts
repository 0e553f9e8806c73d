/**
 * Rule (workflow §1.3 step 2, issue 40): annex proposes rather than asks. `hand annex --propose`
 * (MCP annex_propose) says the name and the posture it would register — local-only without an
 * origin remote; with one, the strongest push-capable posture this machine can run (the
 * no-mistakes gate installed: no-mistakes-prod-only; gh ready: direct-PR; else local-only and
 * why) — yolo always off, and for every posture whether annex would take it now or the refusal
 * it would give. It registers nothing, and a token in the remote's URL is never repeated.
 * gh and no-mistakes are the doubles in tests/doubles (neither can run here).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callerEnv, GH_DOUBLE } from '../helpers/bin-dir.ts';
import { useCliWorld } from '../helpers/cli-world.ts';

const NO_MISTAKES_DOUBLE = resolve(import.meta.dirname, '../doubles/no-mistakes/no-mistakes');

const makeWorld = useCliWorld();

describe('annex proposes the posture its remote and this machine allow', () => {
  it('local-only without origin; direct-PR with origin and gh; no-mistakes-prod-only with the gate too; each option with its refusal; nothing registered', async () => {
    const w = await makeWorld('annex-propose');
    const bare = callerEnv(w.root, 'bin-bare');
    const withGh = callerEnv(w.root, 'bin-gh', { gh: GH_DOUBLE }, 'gho_test');
    const withGate = callerEnv(w.root, 'bin-gate', { gh: GH_DOUBLE, 'no-mistakes': NO_MISTAKES_DOUBLE }, 'gho_test');
    const propose = async (env: Record<string, string>) => {
      const r = await w.hand(['annex', w.repo, '--propose', '--json'], { env });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return r.json;
    };

    const none = await propose(bare);
    expect(none).toMatchObject({ name: 'repo', nameFree: true, registeredAs: null, origin: null, posture: 'local-only', yolo: false });
    expect(none.why).toContain('no origin remote');
    const direct = none.options.find((o: { posture: string }) => o.posture === 'direct-PR');
    expect(direct).toMatchObject({ ready: false });
    expect(direct.problem).toContain('has no origin remote');

    // A token in the remote's URL is a secret: the proposal names the remote without it.
    execFileSync('git', ['remote', 'add', 'origin', 'https://acme:ghp_secret123@github.com/acme/shop.git'], { cwd: w.repo });
    const noGh = await propose(bare);
    expect(noGh).toMatchObject({ origin: 'https://github.com/acme/shop.git', posture: 'local-only' });
    expect(JSON.stringify(noGh)).not.toContain('ghp_secret123');
    expect(noGh.options.find((o: { posture: string }) => o.posture === 'direct-PR')).toMatchObject({ ready: false, fix: expect.stringContaining('gh auth login') });

    expect(await propose(withGh)).toMatchObject({ posture: 'direct-PR', why: expect.stringContaining('each landing opens a pull request') });
    const gated = await propose(withGate);
    expect(gated).toMatchObject({ posture: 'no-mistakes-prod-only' });
    expect(gated.options.map((o: { posture: string; ready: boolean }) => [o.posture, o.ready])).toEqual([
      ['local-only', true], ['direct-PR', true], ['no-mistakes', true], ['no-mistakes-prod-only', true],
    ]);
    const text = await w.hand(['annex', w.repo, '--propose'], { env: withGate });
    expect(text.stdout).toContain('proposed: no-mistakes-prod-only, yolo off');
    expect(text.stdout).toContain(`register it: hand annex ${w.repo} --posture no-mistakes-prod-only`);

    // Proposing registered nothing; once registered, the proposal says under which name.
    expect((await w.hand(['projects', '--json'], { env: bare })).json).toEqual([]);
    expect((await w.hand(['annex', w.repo, '--name', 'shop', '--json'], { env: bare })).code).toBe(0);
    expect(await propose(bare)).toMatchObject({ name: 'shop', registeredAs: 'shop' });
  }, 60_000);
});
