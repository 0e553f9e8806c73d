/**
 * The real fleet in process for the real-Claude tests that no CLI call can set up: the real
 * tmux and pty hosts, a real SQLite store, the real ports (optionally with one replaced), a temp
 * git repository and a throwaway agent HOME seeded like a person's who finished onboarding.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createFleetHost, type FleetHost, type WorkerView } from '../../actors/fleet-host.ts';
import { firstPrompt } from '../../daemon/fleet/dispatch.ts';
import { createRealPorts } from '../../io/ports/real-ports.ts';
import type { WorkerPorts } from '../../io/ports/worker-ports.ts';
import { claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { openStore } from '../../persistence/sqlite-store.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import { requireClaudeBinary } from '../harness/claude-binary.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { makeTempDir, waitForEvent } from '../helpers/temp.ts';
import { removeWhenQuiet } from './e2e-world.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';

export interface FleetWorld {
  fleet: FleetHost;
  hosts: { tmux: ReturnType<typeof createTmuxHost>; pty: ReturnType<typeof createPtyHost> };
  claudeJsonPath: string;
  worktreeOf(id: string): string;
  dispatch(id: string, backend: 'tmux' | 'pty', task: string, o: { stallMs: number }): Promise<WorkerView>;
  cleanup(): Promise<void>;
}

export async function makeFleetWorld(label: string, fake: FakeAnthropic, replace: Partial<WorkerPorts> = {}): Promise<FleetWorld> {
  requireClaudeBinary();
  const tmp = makeTempDir(label);
  try {
    return await build(tmp, fake, replace);
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}

async function build(tmp: ReturnType<typeof makeTempDir>, fake: FakeAnthropic, replace: Partial<WorkerPorts>): Promise<FleetWorld> {
  const root = realpathSync(tmp.path);
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(agentHome);
  const { claudeJsonPath } = seedClaudeHome({ home: agentHome, worktrees: [], renderer: 'fullscreen' });
  await makeTestRepo(repo, '# e2e repo\n');
  const env = claudeTestEnv({ home: agentHome, baseUrl: fake.url, renderer: 'fullscreen', path: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` });

  const store = openStore(join(root, 'fleet.db'));
  // What `hand annex --yolo --permissions edits` records: these tests are about the worker's
  // screens, not the gates, and were written against acceptEdits (as e2e-world annexes). The
  // default posture `off` launches with bypassPermissions, which Claude Code refuses as root.
  store.upsertProject({ name: 'e2e', repo, posture: 'local-only', yolo: true, registeredAt: Date.now(), permissions: 'edits' });
  const hosts = { tmux: createTmuxHost({ socketPath: join(root, 'tmux.sock') }), pty: createPtyHost() };
  // The posture comes from the project record, as the daemon wires it (daemon/main.ts).
  const real = createRealPorts({ fallbackEnv: env, postureOf: (intent) => store.getProject(intent.project)?.permissions ?? 'off' });
  const fleet = createFleetHost({ store, hosts, ports: { ...real, ...replace } });
  await fleet.start();

  const worktreeOf = (id: string) => join(repo, '.claude', 'worktrees', id);
  return {
    fleet, hosts, claudeJsonPath, worktreeOf,
    async dispatch(id, backend, task, o) {
      const dir = join(root, 'workers', id);
      mkdirSync(dir, { recursive: true });
      const briefPath = join(dir, 'brief.md');
      const reportPath = join(dir, 'report.md');
      writeFileSync(briefPath, `# Brief ${id}\n\n## Task\n\n${task}\n`);
      const intent: WorkerIntent = {
        id, project: 'e2e', repo, worktree: worktreeOf(id), branch: `worktree-${id}`, base: 'main',
        backend, agent: 'claude', briefPath, reportPath, createdAt: Date.now(),
      };
      real.rememberCallerEnv(id, env);
      return fleet.dispatch({ intent, stallMs: o.stallMs, firstPrompt: firstPrompt(briefPath, reportPath) });
    },
    async cleanup() {
      // /exit first (stop): a Claude Code killed with its server still writes into the agent HOME.
      await Promise.all(fleet.views().filter((v) => v.live).map((v) => fleet.stop(v.id, { timeoutMs: 15_000 }).catch(() => undefined)));
      await fleet.shutdown();
      for (const v of fleet.views()) if (v.paneId && v.backend === 'pty') await hosts.pty.close(v.paneId).catch(() => undefined);
      await hosts.pty.dispose();
      await hosts.tmux.killServer().catch(() => undefined);
      store.close();
      await removeWhenQuiet(tmp.cleanup);
    },
  };
}

/** The worker's view once `accept` takes it (now or on a later change); the screen is in the timeout message. */
export async function untilView(w: FleetWorld, id: string, accept: (v: WorkerView) => boolean, what: string, timeoutMs = 45_000): Promise<WorkerView> {
  const now = w.fleet.view(id);
  if (now && accept(now)) return now;
  try {
    return await waitForEvent((l) => w.fleet.subscribe(l), (v) => v.id === id && accept(v), { what, timeoutMs });
  } catch (err) {
    const screen = await w.fleet.readScreen(id);
    throw new Error(`${(err as Error).message}\n--- view: ${JSON.stringify(w.fleet.view(id))}\n--- screen:\n${screen.ok ? screen.text : screen.error}`);
  }
}
