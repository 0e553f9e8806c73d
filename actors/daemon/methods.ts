/**
 * The daemon's method table, written once: every method the socket serves is a line here, and
 * a rule that cuts across methods (cross-rules.ts) is called by name in the method that obeys it
 * — nothing is patched in afterwards, nothing depends on registration order. Each refusal still
 * comes before the method's first side effect.
 */
import type { MethodName } from '../../contract/methods.ts';
import type { Handler } from '../../contract/protocol.ts';
import { dispatchUnderRules, type CrossRules } from './cross-rules.ts';

type Group = Record<string, Handler>;

export interface MethodGroups {
  /** ping, shutdown, annex, projects, dispatch, status, wait, watch, read, send, keys, answer, stop (handlers.ts) */
  core: Group;
  /** land, approve, reject, landings (landing.ts) */
  landing: Group;
  /** projectSet (project-handlers.ts) */
  project: Group;
  /** discard (discard-handlers.ts) */
  discard: Group;
  /** relaunch (relaunch-handlers.ts) */
  relaunch: Group;
  /** hook (hook-handlers.ts) */
  hook: Group;
  /** survey, audience (fleet-picture.ts) */
  picture: Group;
  /** review: the page's URL (actors/review/wiring.ts) */
  review: Group;
  /** backlog, decisions, away mode, journal, notifications, usage (work-handlers.ts) */
  work: Group;
}

const idOf = (p: Record<string, unknown>): string => String(p.id ?? '');

export function createMethods(g: MethodGroups, rules: CrossRules): Record<MethodName, Handler> {
  const { core, landing, work } = g;
  return {
    ping: core.ping!,
    shutdown: core.shutdown!,
    annex: core.annex!,
    projects: core.projects!,
    projectSet: g.project.projectSet!,
    // The usage limit, then a backlog item's own checks, then dispatch's refusals.
    dispatch: (p, ctx) => dispatchUnderRules(rules, core.dispatch!, p, ctx),
    status: async (p, ctx) => rules.withItemAndDecision((await core.status!(p, ctx)) as Record<string, unknown>[]),
    wait: core.wait!,
    watch: core.watch!,
    read: core.read!,
    send: core.send!,
    keys: core.keys!,
    answer: core.answer!,
    // async: a refusal thrown here must reach the caller as a rejected reply, not escape the server.
    stop: async (p, ctx) => {
      if (p.force !== true) rules.refuseIfParked(idOf(p), 'torn down', `stop it anyway with hand stop ${idOf(p)} --force`);
      return core.stop!(p, ctx);
    },

    land: async (p, ctx) => {
      rules.refuseIfParked(idOf(p), 'landed');
      try {
        return await landing.land!(p, ctx);
      } catch (err) {
        // Review-gate findings become decisions the person answers (gate-findings-decisions.ts).
        throw rules.findingsAsDecisions(idOf(p), err);
      }
    },
    approve: async (p, ctx) => {
      rules.refuseIfParked(idOf(p), 'landed');
      return landing.approve!(p, ctx);
    },
    reject: landing.reject!,
    landings: landing.landings!,
    discard: async (p, ctx) => {
      if (p.allFinished === true) return rules.discardAllButParked(g.discard.discard!, p, ctx);
      rules.refuseIfParked(idOf(p), 'discarded');
      return g.discard.discard!(p, ctx);
    },
    relaunch: async (p, ctx) => {
      rules.refuseIfParked(idOf(p), 'relaunched', 'answering it relaunches it when its session is gone');
      return g.relaunch.relaunch!(p, ctx);
    },

    hook: g.hook.hook!,
    review: g.review.review!,
    survey: g.picture.survey!,
    audience: g.picture.audience!,

    'backlog.add': work['backlog.add']!,
    'backlog.list': work['backlog.list']!,
    'backlog.ready': work['backlog.ready']!,
    'backlog.show': work['backlog.show']!,
    'backlog.start': work['backlog.start']!,
    'backlog.hold': work['backlog.hold']!,
    'backlog.unhold': work['backlog.unhold']!,
    'backlog.block': work['backlog.block']!,
    'backlog.done': work['backlog.done']!,
    'backlog.reopen': work['backlog.reopen']!,
    'backlog.drop': work['backlog.drop']!,
    decisions: work.decisions!,
    decide: work.decide!,
    'afk.on': work['afk.on']!,
    'afk.off': work['afk.off']!,
    'afk.digest': work['afk.digest']!,
    'afk.status': work['afk.status']!,
    journal: work.journal!,
    'notify.add': work['notify.add']!,
    'notify.list': work['notify.list']!,
    'notify.remove': work['notify.remove']!,
    'notify.test': work['notify.test']!,
    'notify.log': work['notify.log']!,
    usage: work.usage!,
    'usage.source': work['usage.source']!,
    'work.summary': work['work.summary']!,
  };
}
