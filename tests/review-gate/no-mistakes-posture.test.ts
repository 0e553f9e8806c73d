/**
 * The no-mistakes posture, driven, through the real `hand` binary with the mock agent. The gate
 * is the double in tests/doubles/no-mistakes (written from the reference's documented behaviour:
 * it cannot be installed here), gh is the double in tests/doubles/gh. Covered: refusal until the
 * gate is initialised (naming `no-mistakes init`), the CI preflight and gate invocation carried
 * in the brief, landing that reads the gate run (no run; findings listed and each made a decision
 * that `hand decide` answers, the landing refused until all are decided; passed with its PR), and
 * prod-only classification (internal ships direct-PR; product goes through the gate).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binDir } from '../helpers/bin-dir.ts';
import { useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';

const DOUBLES = resolve(import.meta.dirname, '../doubles');
const makeWorld = useCliWorld();

async function gateWorld() {
  const w = await makeWorld('no-mistakes');
  const bin = binDir(w.root, 'bin', { gh: join(DOUBLES, 'gh', 'gh'), 'no-mistakes': join(DOUBLES, 'no-mistakes', 'no-mistakes') });
  const gateState = join(w.root, 'gate-state.json');
  const ghState = join(w.root, 'gh-state.json');
  // acme/shop has commits but no check was ever reported on them: no-ci.
  writeFileSync(ghState, JSON.stringify({ repos: { 'acme/shop': { defaultBranch: 'main', commits: ['a1', 'b2'], checkRuns: { a1: 0, b2: 0 }, statuses: { a1: 0, b2: 0 } } } }));
  const env = { PATH: bin, GH_TOKEN: 'x', GH_DOUBLE_STATE: ghState, NO_MISTAKES_DOUBLE_STATE: gateState };
  execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/shop.git'], { cwd: w.repo });
  const hand = (args: string[]) => w.hand(args, { env });
  const gate = (cwd: string, ...args: string[]) => execFileSync(join(bin, 'no-mistakes'), args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  const setRun = (patch: Record<string, unknown>) => {
    const s = JSON.parse(readFileSync(gateState, 'utf8'));
    Object.assign(s.runs.at(-1), patch);
    writeFileSync(gateState, JSON.stringify(s));
  };
  return { w, hand, gate, setRun };
}

describe('the no-mistakes posture', () => {
  it('refuses until the gate is initialised; carries CI preflight and gate invocation; landing reads the gate run', async () => {
    const { w, hand, gate, setRun } = await gateWorld();
    expect((await hand(['annex', w.repo, '--posture', 'no-mistakes', '--yolo', '--json'])).code).toBe(0);
    const brief = join(w.root, 'n1.md');
    writeFileSync(brief, "# Brief n1\n\n## Read first\n\nNothing.\n\n## Goal\nFix the greeting's typo.\n\n## Task\n\nMODE:report\n");

    const refused = await hand(['dispatch', 'n1', '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe('gate-not-initialised');
    expect(refused.json.error.message).toContain(`cd ${w.repo} && no-mistakes init`);
    expect(existsSync(join(w.repo, '.claude', 'worktrees', 'n1'))).toBe(false);
    expect(existsSync(join(w.home, 'workers', 'n1'))).toBe(false);

    gate(w.repo, 'init');
    const d = await hand(['dispatch', 'n1', '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    expect(d.json.delivery).toMatchObject({ ships: 'no-mistakes', ci: { status: 'no-ci', signal: 'none-reported' } });
    const staged = readFileSync(d.json.briefPath, 'utf8');
    // Proven no-ci and yolo on: --skip ci, and the terminating CI line.
    expect(staged).toContain(`no-mistakes axi run --intent 'Fix the greeting'\\''s typo.' --skip ci`);
    expect(staged).toContain('CI preflight: no-ci (none-reported)');
    expect(staged).toMatch(/fifteen minutes.*Do not merge/);
    expect((await hand(['wait', 'n1', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);

    const noRun = await hand(['land', 'n1', '--json']);
    expect(noRun.json.error.code, noRun.json.error.message).toBe('gate-no-run');

    const wt = join(w.repo, '.claude', 'worktrees', 'n1');
    gate(wt, 'axi', 'run', '--intent', "Fix the greeting's typo.", '--skip', 'ci');
    setRun({
      status: 'running', awaiting_agent: 'review', findings: '1 awaiting, 1 auto-fix',
      gateFindings: [
        { id: 'F1', severity: 'high', file: 'src/greet.ts', line: 12, action: 'ask-user', description: 'Should the greeting be localised?' },
        { id: 'F2', severity: 'low', file: 'README.md', line: 3, action: 'auto-fix', description: 'Typo in the example.' },
      ],
    });
    const findings = await hand(['land', 'n1', '--json']);
    expect(findings.code).toBe(1);
    expect(findings.json.error.code).toBe('gate-findings');
    expect(findings.json.error.message).toContain('F1 [high, ask-user] src/greet.ts:12 — Should the greeting be localised?');
    expect(findings.json.error.message).toContain('F2 [low, auto-fix] README.md:3 — Typo in the example.');
    expect(findings.json.error.message).toContain('each is now a decision, and the landing stays refused until they are decided');
    // Each finding is a decision record: listed, named in the refusal, answered by hand decide.
    const open = (await hand(['decisions', '--json'])).json as { key: string; worker: string; question: string; options: string[] }[];
    expect(open.map((d) => d.worker)).toEqual(['n1', 'n1']);
    const keyOf = (id: string) => open.find((d) => d.question.includes(`${id} [`))!.key;
    expect(open.find((d) => d.key === keyOf('F1'))!.options).toEqual(['fix it', 'leave it as it is']);
    for (const id of ['F1', 'F2']) expect(findings.json.error.message).toContain(keyOf(id));
    const parked = await hand(['land', 'n1', '--json']);
    expect(parked.json.error.code).toBe('worker-parked');
    expect(parked.json.error.message).toContain(keyOf('F1'));
    const answered = await hand(['decide', keyOf('F1'), 'keep it English only', '--json']);
    expect(answered.code, answered.stdout + answered.stderr).toBe(0);
    expect(answered.json).toMatchObject({ state: 'answered', worker: 'n1', delivery: 'sent' });
    expect((await hand(['decide', keyOf('F2'), '--declined', 'the gate fixes it itself', '--json'])).json.state).toBe('declined');
    expect((await hand(['decisions', '--json'])).json).toEqual([]);
    // The worker takes the answer (the mock finishes its report on it) and settles again.
    await waitFor(() => readFileSync(d.json.reportPath, 'utf8').includes('as decided') || undefined, { what: "n1's report after the F1 answer", timeoutMs: 30_000 });
    expect((await hand(['wait', 'n1', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
    const decided = await hand(['land', 'n1', '--json']);
    expect(decided.json.error.code).toBe('gate-findings');
    expect(decided.json.error.message).toContain('each was decided already');
    expect((await hand(['decisions', '--json'])).json).toEqual([]);

    setRun({ status: 'completed', outcome: 'passed', pr: 'https://github.com/acme/shop/pull/7', awaiting_agent: undefined, gateFindings: undefined, findings: undefined });
    const passed = await hand(['land', 'n1', '--json']);
    expect(passed.json.error.code).toBe('gate-passed');
    expect(passed.json.error.message).toContain('https://github.com/acme/shop/pull/7');
  });

  it('prod-only classifies each task: internal ships direct-PR, product goes through the gate (held before push with yolo off)', async () => {
    const { w, hand, gate } = await gateWorld();
    gate(w.repo, 'init');
    expect((await hand(['annex', w.repo, '--posture', 'no-mistakes-prod-only', '--json'])).code).toBe(0); // yolo off: gated
    const internal = await hand(['dispatch', 'p1', '--repo', w.repo, '--brief', w.brief('p1', 'Bump the release script.'), '--agent', 'mock', '--task-kind', 'internal', '--json']);
    expect(internal.code, internal.stdout + internal.stderr).toBe(0);
    expect(internal.json.delivery).toMatchObject({ ships: 'direct-PR', taskKind: 'internal', gateCommand: null });
    expect(readFileSync(internal.json.briefPath, 'utf8')).toContain('ships direct-PR without the review gate');

    const product = await hand(['dispatch', 'p2', '--repo', w.repo, '--brief', w.brief('p2', 'Redesign checkout.'), '--agent', 'mock', '--task-kind', 'product', '--json']);
    expect(product.json.delivery).toMatchObject({ ships: 'no-mistakes', taskKind: 'product' });
    const text = readFileSync(product.json.briefPath, 'utf8');
    expect(text).toContain('--skip push,pr,ci');
    expect(text).toContain('Stop before anything is pushed');
    // Unclassified is uncertain: through the gate.
    const unclassified = await hand(['dispatch', 'p3', '--repo', w.repo, '--brief', w.brief('p3', 'Something.'), '--agent', 'mock', '--json']);
    expect(unclassified.json.delivery.ships).toBe('no-mistakes');
  });
});
