/**
 * `hand project set <name> --permissions …`: change a registered project's permission posture
 * later. The new posture applies from the next launch setup (dispatch, relaunch); a worker
 * already running keeps the settings it started with, and the answer says so.
 */
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { describePosture, type PermissionPosture } from '../../io/agent/claude/permissions.ts';
import type { FleetStore, ProjectRecord } from '../../persistence/types.ts';
import type { FleetHostApi } from '../fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { conditionOf } from '../wait-report.ts';

/** The posture a project's workers run under (absent in an old row = 'off', the seed's default). */
export function postureOfProject(store: FleetStore, name: string): PermissionPosture {
  return store.getProject(name)?.permissions ?? 'off';
}

/** `--permissions` on annex: given → parsed; absent → kept on re-annex, 'off' for a new project. */
export function annexPermissions(given: PermissionPosture | undefined, previous: ProjectRecord | undefined): PermissionPosture {
  return given ?? previous?.permissions ?? 'off';
}

export function projectHandlers(deps: { store: FleetStore; fleet: FleetHostApi }): Pick<MethodTable, 'projectSet'> {
  return {
    async projectSet({ name, permissions }) {
      const project = deps.store.getProject(name);
      if (!project || project.name !== name) {
        throw new RefusedError('unknown-project', `no project named ${JSON.stringify(name)}. \`hand projects\` lists them.`, { name });
      }
      if (permissions === undefined) throw new UsageError('nothing-to-set', 'nothing to change: pass --permissions off|edits|ask.', { name });
      const before = project.permissions ?? 'off';
      deps.store.upsertProject({ ...project, permissions });
      const running = deps.fleet
        .views()
        .filter((v) => v.project === name && v.live && conditionOf(v) !== 'gone')
        .map((v) => v.id);
      return { ...project, permissions, previous: before, changed: before !== permissions, describe: describePosture(permissions), runningUnder: running.length ? before : null, running };
    },
  };
}
