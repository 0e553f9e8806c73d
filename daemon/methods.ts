/**
 * The daemon's method table, written once: every method the socket serves is a line here, and
 * a rule that cuts across methods (cross-rules.ts) is called by name in the method that obeys it
 * — nothing is patched in afterwards, nothing depends on registration order. Each refusal still
 * comes before the method's first side effect. Typed as MethodTable (contract/protocol.ts): each
 * line takes its method's params, already parsed at the edge (param-parsers.ts), and must answer
 * its method's result (contract/methods.ts), or it does not compile.
 */
import { closeWorker } from './gates/close-handler.ts';
import type { MethodTable } from '../contract/protocol.ts';
import type { DiscardParams, DiscardedWorker, StatusRow } from '../contract/methods.ts';
import { dispatchUnderRules, type CrossRules } from './cross-rules.ts';
import type { CoreMethods } from './fleet/handlers.ts';
import type { LandingMethods } from './gates/landing.ts';
import type { discardHandlers } from './gates/discard-handlers.ts';
import type { WorkMethods } from './work/work-handlers.ts';
import type { hostHandlers } from './hosts/host-handlers.ts';
import type { FleetStore } from '../persistence/types.ts';
import type { FleetHostApi } from '../actors/fleet-api.ts';

export interface MethodGroups {
  /** ping, shutdown, annex, projects, dispatch, status, wait, watch, read, send, keys, answer, stop (handlers.ts) */
  core: CoreMethods;
  /** land, approve, reject, landings (landing.ts) */
  landing: LandingMethods;
  /** projectSet (project-handlers.ts) */
  project: Pick<MethodTable, 'projectSet'>;
  /** discard (discard-handlers.ts) */
  discard: ReturnType<typeof discardHandlers>;
  /** relaunch (relaunch-handlers.ts) */
  relaunch: Pick<MethodTable, 'relaunch'>;
  /** resume, cost, and what status rows say of sessions and cost (session-handlers.ts) */
  sessions: Pick<MethodTable, 'resume' | 'cost'> & { decorate<R extends StatusRow>(rows: R[]): Promise<R[]> };
  /** hook (hook-handlers.ts) */
  hook: Pick<MethodTable, 'hook'>;
  /** survey, audience (fleet-picture.ts) */
  picture: Pick<MethodTable, 'survey' | 'audience'>;
  /** review: the page's URL (actors/review/wiring.ts) */
  review: Pick<MethodTable, 'review'>;
  /** backlog, decisions, away mode, journal, notifications, usage (work-handlers.ts) */
  work: WorkMethods;
  /** host.add, host.list, host.check, host.trust, host.remove (host-handlers.ts) */
  hosts: ReturnType<typeof hostHandlers>;
  /** The worker's input lane (actors/input-lane.ts): what types into a worker, one caller at a time. */
  inLane<T>(id: string, fn: () => Promise<T>): Promise<T>;
  /** calibrate: the agent CLIs driven against their fake APIs (calibrate/calibrate-handler.ts) */
  calibration: Pick<MethodTable, 'calibrate'>;
  /** The workers' records and views, for close (close-handler.ts). */
  workers: { store: Pick<FleetStore, 'getWorker'>; fleet: Pick<FleetHostApi, 'view'> };
  /** annotate, annotations, annotations.take: the person's notes on a worker's review (annotation-handlers.ts) */
  annotations: Pick<MethodTable, 'annotate' | 'annotations' | 'annotations.take'>;
}

export function createMethods(g: MethodGroups, rules: CrossRules): MethodTable {
  const { core, landing, work } = g;
  return {
    ping: core.ping,
    shutdown: core.shutdown,
    annex: core.annex,
    'annex.propose': core['annex.propose'],
    projects: core.projects,
    projectSet: g.project.projectSet,
    // The usage limit, then a backlog item's own checks, then dispatch's refusals.
    dispatch: async (p) => dispatchUnderRules(rules, core.dispatch, p),
    status: async (p) => g.sessions.decorate(rules.withItemAndDecision(await core.status(p))),
    wait: core.wait,
    watch: core.watch,
    read: core.read,
    report: core.report,
    // A parked worker's next words are the person's answer, through decide: text (or an Enter that
    // would submit what is in its box) would start a new turn and leave the decision open. Not
    // overridden by --allow-non-empty-box (that is about the box, not the decision).
    // What types into a worker waits its turn in the worker's lane; the refusals come first.
    send: async (p, ctx) => {
      rules.refuseIfParked(p.id, 'sent text: a text would start a new turn and leave the decision open');
      return g.inLane(p.id, () => core.send(p, ctx));
    },
    keys: async (p, ctx) => {
      if (p.key === 'enter') rules.refuseIfParked(p.id, 'sent an Enter: it would submit what is in its box as a new turn');
      return g.inLane(p.id, () => core.keys(p, ctx));
    },
    // The fingerprint is checked in the lane, with the keys: a second answer to the same dialog finds it answered.
    answer: async (p, ctx) => g.inLane(p.id, () => core.answer(p, ctx)),
    stop: async (p, ctx) => {
      if (p.force !== true) rules.refuseIfParked(p.id, 'torn down', `stop it anyway with hand stop ${p.id} --force`);
      return g.inLane(p.id, () => core.stop(p, ctx));
    },

    land: async (p, ctx) => {
      rules.refuseIfParked(p.id, 'landed');
      try {
        return await landing.land(p, ctx);
      } catch (err) {
        // Review-gate findings become decisions the person answers (gate-findings-decisions.ts).
        throw rules.findingsAsDecisions(p.id, err);
      }
    },
    approve: async (p, ctx) => {
      rules.refuseIfParked(p.id, 'landed');
      return landing.approve(p, ctx);
    },
    reject: async (p) => {
      const r = await landing.reject(p);
      // Only the brief gate ends the worker; a landing rejected goes back to the worker to fix.
      const item = r.stage === 'rejected' ? rules.requeueItemOf(p.id, 'brief-rejected') : null;
      return item ? { ...r, item } : r;
    },
    landings: landing.landings,
    discard: async (p) => {
      // Each discarded worker gives its backlog item back to the queue.
      const discardOne = async (q: DiscardParams): Promise<DiscardedWorker> => {
        const r = await g.discard.discard(q);
        // What it spent stays its project's, no longer the id's (a next worker of the id starts at zero).
        rules.workBegan(r.id);
        const item = rules.requeueItemOf(r.id, 'worker-discarded');
        return item ? { ...r, item } : r;
      };
      if (p.allFinished === true) return rules.discardAllButParked(discardOne, p);
      rules.refuseIfParked(p.id ?? '', 'discarded');
      return discardOne(p);
    },
    // A read-only worker's close-out (counsel): stopped in its lane, then discarded, its item done.
    close: async (p, ctx) => {
      rules.refuseIfParked(p.id, 'closed');
      return closeWorker(p, ctx, {
        store: g.workers.store, fleet: g.workers.fleet,
        stop: (q, c) => g.inLane(q.id, () => core.stop(q, c)),
        discard: (q) => g.discard.discard(q),
        itemDoneBy: (w, note) => rules.itemDoneBy(w, note),
      });
    },
    relaunch: async (p, ctx) => {
      // A resume continues the conversation that asked: a parked worker comes back parked on the same question.
      if (p.resume !== true) rules.refuseIfParked(p.id, 'relaunched', 'answering it relaunches it when its session is gone');
      return g.inLane(p.id, () => g.relaunch.relaunch(p, ctx));
    },
    // Each worker in its own lane, inside (session-handlers.ts): one at a time, none typed into by two callers.
    resume: (p, ctx) => g.sessions.resume(p, ctx),
    cost: (p, ctx) => g.sessions.cost(p, ctx),

    hook: g.hook.hook,
    review: g.review.review,
    survey: g.picture.survey,
    audience: g.picture.audience,

    'backlog.add': work['backlog.add'],
    'backlog.list': work['backlog.list'],
    'backlog.ready': work['backlog.ready'],
    'backlog.show': work['backlog.show'],
    'backlog.start': work['backlog.start'],
    'backlog.hold': work['backlog.hold'],
    'backlog.unhold': work['backlog.unhold'],
    'backlog.block': work['backlog.block'],
    'backlog.done': work['backlog.done'],
    'backlog.reopen': work['backlog.reopen'],
    'backlog.drop': work['backlog.drop'],
    decisions: work.decisions,
    decide: work.decide,
    'afk.on': work['afk.on'],
    'afk.off': work['afk.off'],
    'afk.digest': work['afk.digest'],
    'afk.status': work['afk.status'],
    journal: work.journal,
    'notify.add': work['notify.add'],
    'notify.list': work['notify.list'],
    'notify.remove': work['notify.remove'],
    'notify.test': work['notify.test'],
    'notify.log': work['notify.log'],
    usage: work.usage,
    'usage.source': work['usage.source'],
    'work.summary': work['work.summary'],
    'host.add': g.hosts['host.add'],
    'host.list': g.hosts['host.list'],
    'host.check': g.hosts['host.check'],
    'host.trust': g.hosts['host.trust'],
    'host.remove': g.hosts['host.remove'],
    'project.host': g.hosts['project.host'],
    calibrate: g.calibration.calibrate,
    annotate: g.annotations.annotate,
    annotations: g.annotations.annotations,
    'annotations.take': g.annotations['annotations.take'],
  };
}
