/**
 * `hand project set <p> --resume-lost auto` (issue 41 item 3): when the daemon starts and finds
 * workers of such a project lost (their terminal server went with a reboot), it resumes them, one
 * at a time, each into its own conversation — as `hand resume` would, with the daemon's own
 * environment (the caller's, kept in memory only, went with the previous daemon). A worker whose
 * conversation cannot be proved stays lost, and the log says why.
 */
import type { CallContext } from '../../contract/protocol.ts';
import type { ResumeResult } from '../../contract/methods.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';

export const NO_PROGRESS: CallContext<'resume'> = { progress: () => {}, signal: new AbortController().signal };

export async function resumeLostOfAutoProjects(deps: {
  store: FleetStore;
  fleet: Pick<FleetHostApi, 'views'>;
  resume(ids: string[]): Promise<ResumeResult>;
  log(obj: Record<string, unknown>, msg: string): void;
}): Promise<ResumeResult | null> {
  const auto = new Set(deps.store.listProjects().filter((p) => p.resumeLost === 'auto').map((p) => p.name));
  const ids = deps.fleet.views().filter((v) => v.marks.includes('lost') && auto.has(v.project)).map((v) => v.id);
  if (ids.length === 0) return null;
  try {
    const r = await deps.resume(ids);
    deps.log({ resumed: r.resumed.map((w) => w.id), refused: r.refused.map((w) => ({ id: w.id, why: w.why })) }, 'lost workers resumed by their projects\' setting');
    return r;
  } catch (err) {
    deps.log({ ids, err: String(err) }, 'resuming lost workers failed');
    return null;
  }
}
