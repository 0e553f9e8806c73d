/**
 * Where kingshand's sandbox is not around an OpenCode worker (a far host, a machine without
 * bubblewrap), its permission rules are the fence of its file tools, under every posture, `off`
 * included: the real OpenCode 1.18.33, told to read kingshand's state directory and the person's
 * SSH key and to overwrite its own brief, is refused each time by the rules (and asks nobody:
 * `off` draws no dialog), while it reads its brief, writes its report and its worktree. The same
 * refusals quote the rules that refused, each a deny of the worker's own OPENCODE_PERMISSION (OpenCode
 * denies none of these by itself): it is kingshand's rules that refuse.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type ScriptItem } from '../../../io/fake-model/anthropic.ts';
import { launchInTmux, type TmuxPane } from '../../harness/claude-tmux.ts';
import { prepareOpencodeRun, type PreparedOpencodeRun } from '../../harness/real-opencode.ts';
import { opencodeSubmit, waitOpencodeIdle } from '../../corpus/opencode-scenarios.ts';
import { agentLogTail } from '../../../daemon/calibration/agent-log.ts';
import { opencodeCalibrationKit } from '../../../io/agent/opencode/calibration-kit.ts';

let fake: FakeAnthropic | undefined;
let run: PreparedOpencodeRun | undefined;
let pane: TmuxPane | undefined;
afterEach(async () => {
  await pane?.kill();
  run?.cleanup();
  await fake?.close();
  pane = undefined;
  run = undefined;
  fake = undefined;
});

const BRIEF = '# Brief\n\nThe daemon wrote this.\n';

/** Each call's result as OpenCode sent it back, in order. */
async function attempt(): Promise<{ results: { content: string; isError: boolean }[]; run: PreparedOpencodeRun }> {
  fake = await startFakeAnthropic({ suggestion: null });
  run = await prepareOpencodeRun({ baseUrl: fake.url, posture: 'off', underState: true });
  const { home, briefDir, reportDir, worktree, stateDir } = run;
  writeFileSync(join(briefDir, 'brief.md'), BRIEF);
  writeFileSync(join(stateDir!, 'fleet.db'), 'the daemon\'s database');
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_test'), 'PRIVATE KEY');
  const calls: ScriptItem[] = [
    { kind: 'tool_use', name: 'Read', input: { file_path: join(stateDir!, 'fleet.db') } },
    { kind: 'tool_use', name: 'Read', input: { file_path: join(home, '.ssh', 'id_test') } },
    { kind: 'tool_use', name: 'Write', input: { file_path: join(briefDir, 'brief.md'), content: 'rewritten by the worker' } },
    { kind: 'tool_use', name: 'Read', input: { file_path: join(briefDir, 'brief.md') } },
    { kind: 'tool_use', name: 'Write', input: { file_path: join(reportDir, 'report.md'), content: 'the report' } },
    { kind: 'tool_use', name: 'Write', input: { file_path: join(worktree, 'made.txt'), content: 'made' } },
    { kind: 'text', text: 'All six tried.' },
  ];
  fake.queue(calls);
  pane = await launchInTmux({ dir: run.root, cwd: worktree, env: run.env, argv: [run.bin], cols: 120, rows: 40 });
  await waitOpencodeIdle(pane, 'the first box');
  await opencodeSubmit(pane, 'try them all');
  // No dialog is ever drawn under off: the turn runs to its end by itself.
  await waitOpencodeIdle(pane, 'the end of the turn', (s) => s.includes('All six tried.'));
  const results = fake.received.filter((r) => r.kind === 'main' && (r.summary?.toolResults.length ?? 0) > 0).map((r) => r.summary!.toolResults[0]!);
  return { results: results.map((r) => ({ content: r.content, isError: r.isError })), run };
}

const REFUSED = /rule which prevents you from using this specific tool call/;

/** The deny rules quoted in OpenCode's refusal that the worker's OPENCODE_PERMISSION itself says. */
function kingshandDenies(refusal: string, permission: string): string[] {
  const quoted = JSON.parse(refusal.slice(refusal.indexOf('relevant rules ') + 'relevant rules '.length)) as { permission: string; pattern: string; action: string }[];
  const ours = JSON.parse(permission) as Record<string, string | Record<string, string>>;
  return quoted
    .filter((q) => q.action === 'deny')
    .filter((q) => {
      const rule = ours[q.permission];
      return typeof rule === 'string' ? rule === 'deny' && q.pattern === '*' : rule?.[q.pattern] === 'deny';
    })
    .map((q) => `${q.permission} ${q.pattern}`);
}

describe("OpenCode's rules refuse the deny list where kingshand's sandbox is not around it", () => {
  it('under off: the state directory, the SSH key and its own brief are refused; its brief is read, its report and worktree written', async () => {
    const { results, run: r } = await attempt();
    expect(results).toHaveLength(6);
    const [db, key, overwrite, brief, report, made] = results;
    for (const refused of [db!, key!, overwrite!]) expect(refused.content).toMatch(REFUSED);
    // Each refusal quotes the rules that refused it: a deny that kingshand's OPENCODE_PERMISSION
    // wrote (OpenCode's own defaults deny none of these: a path outside the worktree is asked about).
    for (const refused of [db!, key!, overwrite!]) expect(kingshandDenies(refused.content, r.env.OPENCODE_PERMISSION!), refused.content).not.toEqual([]);
    expect(JSON.stringify(results)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(results)).not.toContain('the daemon\'s database');
    expect(brief!.content).toContain('The daemon wrote this.');
    expect(readFileSync(join(r.briefDir, 'brief.md'), 'utf8')).toBe(BRIEF);
    for (const ok of [report!, made!]) expect(ok.isError).toBe(false);
    expect(readFileSync(join(r.reportDir, 'report.md'), 'utf8')).toBe('the report');
    expect(readFileSync(join(r.worktree, 'made.txt'), 'utf8')).toBe('made');
    // It logged its run where its calibration kit says, which a failed calibration keeps (daemon/calibration/agent-log.ts).
    expect(agentLogTail(opencodeCalibrationKit.agentLogDir!(r.env)!)).toMatch(/^\S+\.log:\n[\s\S]*creating instance/);
  }, 90_000);
});
