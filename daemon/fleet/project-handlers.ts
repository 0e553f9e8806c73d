/**
 * `hand project set <name> --permissions …`: change a registered project's permission posture
 * later. The new posture applies from the next launch setup (dispatch, relaunch); a worker
 * already running keeps the settings it started with, and the answer says so.
 */
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { describePosture, type PermissionPosture } from '../../io/agent/claude/permissions.ts';
import type { FleetStore, ProjectRecord } from '../../persistence/types.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import type { AcceptBaseResult } from '../../contract/methods/fleet.ts';
import type { AgentName } from '../../contract/vocabulary.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import type { BaseTips } from '../../persistence/base-tips.ts';
import { baseMove, recordBase } from './base-watch.ts';
import { landingTarget } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { PlaceOf } from '../gates/landing.ts';

/** The posture a project's workers run under (absent in an old row = 'off', the seed's default). */
export function postureOfProject(store: FleetStore, name: string): PermissionPosture {
  return store.getProject(name)?.permissions ?? 'off';
}

/** `--agent` on annex: given → recorded; absent → kept on re-annex, none (claude) for a new project. */
export function annexDefaultAgent(given: AgentName | undefined, previous: ProjectRecord | undefined): AgentName | null {
  return given ?? previous?.defaultAgent ?? null;
}

/** `--permissions` on annex: given → parsed; absent → kept on re-annex, 'off' for a new project. */
export function annexPermissions(given: PermissionPosture | undefined, previous: ProjectRecord | undefined): PermissionPosture {
  return given ?? previous?.permissions ?? 'off';
}

export function projectHandlers(deps: { store: FleetStore; fleet: FleetHostApi; baseTips?: BaseTips; placeOf?: PlaceOf }): Pick<MethodTable, 'projectSet'> {
  /**
   * The person says a move of the base outside a landing was theirs (a pull, their own commit):
   * its tip becomes the recorded one, and landing goes on (base-watch.ts).
   */
  async function acceptBase_(project: ProjectRecord, permissions: PermissionPosture | null): Promise<AcceptBaseResult> {
    if (!deps.baseTips) throw new RefusedError('no-base-record', 'this daemon keeps no record of base tips; nothing to accept.', { name: project.name });
    if (permissions !== null) throw new UsageError('one-thing-at-a-time', 'pass --accept-base or --permissions, not both.', { name: project.name });
    // Each place the project's workers run: its checkout here, and its checkout on each far host they ran on.
    const places = new Map<string, { host?: string; repo: string; base: string }>();
    for (const w of deps.store.listWorkers().filter((x) => x.project === project.name)) {
      const far = w.host && w.host !== 'local' ? w.host : undefined;
      const repo = far ? w.repo : project.repo;
      places.set(`${far ?? ''}\u0000${repo}\u0000${w.base}`, { ...(far && { host: far }), repo, base: w.base });
    }
    const accepted: { branch: string; from: string | null; to: string; host?: string }[] = [];
    for (const at of places.values()) {
      await onHost(deps.placeOf?.(at) ?? null, async () => {
        const moved = await baseMove(deps.baseTips!, at.repo, at.base);
        const to = await recordBase(deps.baseTips!, at.repo, at.base, 'person', Date.now());
        if (to) accepted.push({ branch: landingTarget(at.base), from: moved?.from ?? null, to, ...(at.host && { host: at.host }) });
      });
    }
    return { ...project, acceptedBase: accepted, describe: accepted.length ? accepted.map((a) => `${a.branch}${a.host ? ` on ${a.host}` : ''} at ${a.to.slice(0, 12)} is recorded as yours${a.from ? ` (was ${a.from.slice(0, 12)})` : ''}`).join('; ') : 'no worker of this project has a base to record' };
  }
  return {
    async projectSet({ name, permissions, agent, acceptBase, budgetUsdPerDay, resumeLost }) {
      const project = deps.store.getProject(name);
      if (!project || project.name !== name) {
        throw new RefusedError('unknown-project', `no project named ${JSON.stringify(name)}. \`hand projects\` lists them.`, { name });
      }
      if (acceptBase === true) {
        if (agent !== undefined) throw new UsageError('one-thing-at-a-time', 'pass --accept-base or --agent, not both.', { name });
        return acceptBase_(project, permissions ?? null);
      }
      if (permissions === undefined && agent === undefined && budgetUsdPerDay === undefined && resumeLost === undefined) {
        throw new UsageError('nothing-to-set', 'nothing to change: pass --permissions off|edits|ask, --agent <agent>, --budget <n>usd/day|none, --resume-lost auto|ask or --accept-base.', { name });
      }
      const before = project.permissions ?? 'off';
      const now = permissions ?? before;
      const agentBefore = project.defaultAgent ?? null;
      const { budgetUsdPerDay: _b, resumeLost: _r, ...rest } = project;
      const budget = budgetUsdPerDay === undefined ? project.budgetUsdPerDay : (budgetUsdPerDay ?? undefined);
      const resume = resumeLost === undefined ? project.resumeLost : resumeLost === 'auto' ? 'auto' : undefined;
      const updated: ProjectRecord = { ...rest, permissions: now, defaultAgent: agent ?? agentBefore, ...(budget !== undefined && { budgetUsdPerDay: budget }), ...(resume && { resumeLost: resume }) };
      deps.store.upsertProject(updated);
      const running = deps.fleet
        .views()
        .filter((v) => v.project === name && v.live && conditionOf(v) !== 'gone')
        .map((v) => v.id);
      return {
        ...updated,
        permissions: now,
        previous: before,
        changed: before !== now,
        describe: describePosture(now),
        runningUnder: running.length ? before : null,
        running,
        // Running workers keep the agent they run; the default is read by the next dispatch without --agent.
        defaultAgentChange: agent === undefined ? null : { previous: agentBefore, now: agent, changed: agentBefore !== agent },
      };
    },
  };
}
