/**
 * Issue 27's bench figure for Codex CLI: blocked detection on tmux with the real binary
 * (pinned 0.169.0) against the fake Responses API. Each trial queues an escalated command under
 * the `ask` posture and measures from the moment the fake finished sending that reply to the
 * first worker view that is blocked; the answer (`y`) and the turn's end close the trial.
 * In process (fleet host, real SQLite, real ports, tmux host), like detection-inprocess.ts.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../persistence/sqlite-store.ts';
import { createFleetHost } from '../actors/fleet-host.ts';
import { createRealPorts } from '../io/ports/real-ports.ts';
import { firstPrompt } from '../daemon/fleet/dispatch.ts';
import { startFakeCodexApi } from '../io/fake-model/codex.ts';
import { FAKE_OPENAI_KEY, FAKE_OPENAI_KEY_ENV, codexTestEnv, seedCodexHome } from '../tests/harness/codex-env.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeHost } from './lib/hosts.ts';
import { isCondition, viewWhen } from './lib/fleet-world.ts';
import { onCleanup } from './lib/cleanup.ts';
import { nowMs, summarise } from './lib/stats.ts';

export async function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const world = makeWorld('det-codex');
  const fake = await startFakeCodexApi();
  onCleanup('fake Responses API', () => fake.close());
  const codex = seedCodexHome(join(world.root, 'codex-home'), fake.url);
  const env = { ...codexTestEnv(codex, { path: process.env.PATH ?? '/usr/bin:/bin' }), [FAKE_OPENAI_KEY_ENV]: FAKE_OPENAI_KEY };
  const host = await makeHost('tmux', world.root);
  const store = openStore(join(world.root, 'fleet-codex.db'));
  store.upsertProject({ name: 'bench', repo: world.repo, posture: 'local-only', yolo: true, permissions: 'ask', registeredAt: Date.now() });
  // Under ask an escalated command is put to a person (the posture the daemon reads from the project).
  const ports = createRealPorts({ fallbackEnv: env, postureOf: () => 'ask' });
  const fleet = createFleetHost({ store, hosts: { tmux: host }, ports });
  await fleet.start();
  onCleanup('in-process fleet (codex)', async () => {
    for (const v of fleet.views()) if (v.paneId) await fleet.stop(v.id, { timeoutMs: 10_000 }).catch(() => host.close(v.paneId!).catch(() => {}));
    await fleet.shutdown();
    store.close();
  });

  const id = 'det-codex';
  // The provider's own key variable is not on the worker allow-list: passed as `--env` would.
  ports.rememberCallerEnv(id, env, { [FAKE_OPENAI_KEY_ENV]: FAKE_OPENAI_KEY });
  const dir = join(world.root, 'workers', id);
  mkdirSync(dir, { recursive: true });
  copyFileSync(world.brief(id), join(dir, 'brief.md'));
  const intent = {
    id, project: 'bench', repo: world.repo, worktree: join(world.repo, '.claude', 'worktrees', id), branch: `worktree-${id}`, base: 'main',
    backend: 'tmux' as const, agent: 'codex', agentVersion: '0.169.0', briefPath: join(dir, 'brief.md'), reportPath: join(dir, 'report.md'), createdAt: Date.now(),
  };
  fake.queue([{ kind: 'text', text: 'Ready.' }]);
  const first = viewWhen(fleet, id, 'settled after its first prompt', isCondition('settled'), 60_000);
  await fleet.dispatch({ intent, stallMs: 20 * 60_000, firstPrompt: firstPrompt(intent.briefPath, intent.reportPath) });
  await first;

  const blocked: number[] = [];
  for (let i = 0; i < opts.trials; i++) {
    let repliedAt = 0;
    const off = fake.onRequest((r) => {
      if (r.reply?.kind === 'shell') repliedAt = nowMs();
    });
    fake.queue([{ kind: 'shell', cmd: 'true', escalate: `May I run trial ${i}?` }]);
    const isBlocked = viewWhen(fleet, id, 'blocked on the approval', isCondition('blocked'), 30_000);
    await fleet.send(id, `run trial ${i}`);
    const blockedAt = await isBlocked.catch(async (err: unknown) => {
      // What the worker showed and what the fake answered: a timeout that explains itself.
      const screen = await fleet.readScreen(id);
      const asked = fake.received.map((r) => `${r.seq}:${r.summary?.side ? 'side' : 'turn'}:${r.reply?.kind ?? '-'}`).join(' ');
      throw new Error(`${String(err)}\n--- fake: ${asked}\n--- screen:\n${screen.ok ? screen.text : screen.error}`);
    });
    off();
    blocked.push(blockedAt - repliedAt);
    const settled = viewWhen(fleet, id, 'settled after the answer', isCondition('settled'), 30_000);
    await fleet.key(id, { char: 'y' });
    await settled;
  }
  opts.log?.(`codex tmux: ${opts.trials} approval trials done`);
  return [summarise('blocked detection, tmux, Codex CLI 0.169.0 (real binary): approval reply sent → actor blocked', 'ms', blocked, null, 'includes Codex drawing the prompt after the reply arrives: polling tmux directly, the prompt shows 0.97–1.13 s after the reply, so nearly all of it is Codex')];
}
