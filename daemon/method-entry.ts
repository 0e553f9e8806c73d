/**
 * One method as the daemon serves it: its edge parser (the raw params off the socket → the
 * method's typed params, or a refusal a person can act on; run ONCE, by the socket server and the
 * review page alike) and its handler, built from the daemon's wiring, with the rules that cut
 * across methods (cross-rules.ts) called by name inside it — nothing is patched in afterwards,
 * nothing depends on registration order, and each refusal still comes before the method's first
 * side effect. Each family's table (daemon/<family>/<family>-methods.ts) is typed FamilyTable of
 * its contract family (contract/methods.ts), so a name without its entry, an entry without a
 * name, or a parser or handler of another shape does not compile.
 */
import type { FamilyName, MethodName, MethodsOf, ParamsOf, StatusRow } from '../contract/methods.ts';
import type { Handler, MethodTable, WireObject } from '../contract/protocol.ts';
import type { CrossRules } from './cross-rules.ts';
import type { CoreMethods } from './fleet/handlers.ts';
import type { LandingMethods } from './gates/landing.ts';
import type { discardHandlers } from './gates/discard-handlers.ts';
import type { WorkMethods } from './work/work-handlers.ts';
import type { hostHandlers } from './hosts/host-handlers.ts';
import type { FleetStore } from '../persistence/types.ts';
import type { FleetHostApi } from '../actors/fleet-api.ts';

/** What the handlers are built from: each family's handlers, made once by create-daemon.ts. */
export interface MethodGroups {
  /** ping, shutdown, annex, projects, dispatch, status, wait, watch, read, send, keys, answer, stop (fleet/handlers.ts) */
  core: CoreMethods;
  /** land, approve, reject, landings (gates/landing.ts) */
  landing: LandingMethods;
  /** projectSet (fleet/project-handlers.ts) */
  project: Pick<MethodTable, 'projectSet'>;
  /** discard (gates/discard-handlers.ts) */
  discard: ReturnType<typeof discardHandlers>;
  /** relaunch (gates/relaunch-handlers.ts) */
  relaunch: Pick<MethodTable, 'relaunch'>;
  /** resume, cost, and what status rows say of sessions and cost (sessions/session-handlers.ts) */
  sessions: Pick<MethodTable, 'resume' | 'cost'> & { decorate<R extends StatusRow>(rows: R[]): Promise<R[]> };
  /** hook (fleet/hook-handlers.ts) */
  hook: Pick<MethodTable, 'hook'>;
  /** survey, audience (gates/fleet-picture.ts) */
  picture: Pick<MethodTable, 'survey' | 'audience'>;
  /** review: the page's URL (actors/review/wiring.ts) */
  review: Pick<MethodTable, 'review'>;
  /** backlog, decisions, away mode, journal, notifications, usage (work/work-handlers.ts) */
  work: WorkMethods;
  /** host.add, host.list, host.check, host.trust, host.remove, project.host (hosts/host-handlers.ts) */
  hosts: ReturnType<typeof hostHandlers>;
  /** The worker's input lane (actors/input-lane.ts): what types into a worker, one caller at a time. */
  inLane<T>(id: string, fn: () => Promise<T>): Promise<T>;
  /** calibrate: the agent CLIs driven against their fake APIs (calibration/calibrate-handler.ts) */
  calibration: Pick<MethodTable, 'calibrate'>;
  /** The workers' records and views, for close (gates/close-handler.ts). */
  workers: { store: Pick<FleetStore, 'getWorker'>; fleet: Pick<FleetHostApi, 'view'> };
  /** annotate, annotations, annotations.take: the person's notes on a worker's review (annotations/annotation-handlers.ts) */
  annotations: Pick<MethodTable, 'annotate' | 'annotations' | 'annotations.take'>;
}

/** The groups and the rules that cut across them: what a handler is built from. */
export type MethodWiring = MethodGroups & { rules: CrossRules };

export interface DaemonMethod<M extends MethodName> {
  parse: (raw: WireObject) => ParamsOf<M>;
  handle: (w: MethodWiring) => Handler<M>;
}

/** One family's entries: exactly the names contract/methods.ts gives the family. */
export type FamilyTable<F extends FamilyName> = { [M in MethodsOf<F>]: DaemonMethod<M> };

/** The parser of a method that takes no params. */
export const none = () => ({});
