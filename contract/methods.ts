/**
 * Every method the daemon serves, named once, with what its caller sends and what it answers:
 * one typed map. The client's `call(paths, method, params)` is typed by it end to end, the
 * daemon's method table (actors/daemon/methods.ts) must have a handler of exactly that shape for
 * each name, and the socket server dispatches only these names (looked up in a Map, so
 * `__proto__` or `toString` is an unknown method, never a prototype's function).
 */
import type * as F from './methods/fleet.ts';
import type * as G from './methods/gates.ts';
import type * as W from './methods/work.ts';
import type * as H from './methods/hosts.ts';
import type * as C from './methods/calibration.ts';
import type * as A from './methods/annotations.ts';
import type * as S from './methods/sessions.ts';

export type * from './methods/fleet.ts';
export type * from './methods/gates.ts';
export type * from './methods/work.ts';
export type * from './methods/hosts.ts';
export type * from './methods/sessions.ts';
export type * from './methods/agent-settings.ts';
export type * from './methods/calibration.ts';
export type * from './methods/annotations.ts';

/** A method's params (what the client sends), its result, and what it streams before the result. */
interface Method<P, R, Progress = never> {
  params: P;
  result: R;
  progress: Progress;
}

export interface MethodMap {
  // the fleet's core
  ping: Method<F.NoParams, F.PingResult>;
  shutdown: Method<F.NoParams, F.ShutdownResult>;
  annex: Method<F.AnnexParams, F.AnnexResult>;
  'annex.propose': Method<F.AnnexProposeParams, F.AnnexProposal>;
  projects: Method<F.NoParams, F.ProjectRecord[]>;
  projectSet: Method<F.ProjectSetParams, F.ProjectSetResult>;
  dispatch: Method<F.DispatchParams, F.DispatchResult>;
  status: Method<F.StatusParams, F.WorkerStatus[]>;
  wait: Method<F.WaitParams, F.WaitReport, F.WaitProgress>;
  watch: Method<F.WatchParams, F.WatchResult, F.WatchProgress>;
  read: Method<F.ReadParams, F.ReadResult>;
  report: Method<F.ReportParams, F.ReportResult>;
  send: Method<F.SendParams, F.SendResult>;
  keys: Method<F.KeysParams, F.KeysResult>;
  answer: Method<F.AnswerParams, F.AnswerResult>;
  stop: Method<F.StopParams, F.StopResult>;
  // the gates and what follows a worker's turn
  land: Method<G.LandParams, G.LandResult>;
  approve: Method<G.ApproveParams, G.ApproveResult>;
  reject: Method<G.RejectParams, G.RejectResult>;
  landings: Method<F.NoParams, G.LandingRow[]>;
  discard: Method<G.DiscardParams, G.DiscardResult>;
  close: Method<G.CloseParams, G.CloseResult>;
  relaunch: Method<G.RelaunchParams, G.RelaunchResult>;
  resume: Method<S.ResumeParams, S.ResumeResult>;
  cost: Method<S.CostParams, S.CostResult>;
  // the second witness, the review page, the Hand's read-only views
  hook: Method<F.HookParams, F.HookResult>;
  review: Method<G.ReviewParams, G.ReviewResult>;
  survey: Method<F.NoParams, G.Survey>;
  audience: Method<G.AudienceParams, G.Audience>;
  // work that outlives a conversation
  'backlog.add': Method<W.BacklogAddParams, W.ItemRow>;
  'backlog.list': Method<W.BacklogListParams, W.ItemRow[]>;
  'backlog.ready': Method<F.NoParams, W.ItemRow[]>;
  'backlog.show': Method<W.ItemIdParams, W.ItemRow>;
  'backlog.start': Method<W.ItemIdParams, W.ItemRow>;
  'backlog.hold': Method<W.BacklogHoldParams, W.ItemRow>;
  'backlog.unhold': Method<W.ItemIdParams, W.ItemRow>;
  'backlog.block': Method<W.BacklogBlockParams, W.ItemRow>;
  'backlog.done': Method<W.BacklogDoneParams, W.BacklogDoneResult>;
  'backlog.reopen': Method<W.ItemIdParams, W.ItemRow>;
  'backlog.drop': Method<W.ItemIdParams, W.ItemRow>;
  decisions: Method<W.DecisionsParams, W.DecisionRow[]>;
  decide: Method<W.DecideParams, W.DecideResult>;
  'afk.on': Method<W.AfkOnParams, W.AfkOnResult>;
  'afk.off': Method<F.NoParams, W.AfkOffResult>;
  'afk.digest': Method<F.NoParams, W.AwayAccount | null>;
  'afk.status': Method<F.NoParams, W.AfkStatusResult>;
  journal: Method<W.JournalParams, W.JournalRow[]>;
  'notify.add': Method<W.NotifyAddParams, W.NotifyAddResult>;
  'notify.list': Method<F.NoParams, W.NotifyListRow[]>;
  'notify.remove': Method<W.NotifyRemoveParams, W.NotifyRemoveResult>;
  'notify.test': Method<W.NotifyTestParams, W.NotifyTestRow[]>;
  'notify.log': Method<F.NoParams, W.DeliveryRow[]>;
  usage: Method<F.NoParams, W.UsageResult>;
  'usage.source': Method<W.UsageSourceParams, W.UsageSourceResult>;
  'work.summary': Method<F.NoParams, W.WorkSummary>;
  // machines the fleet reaches over ssh
  'host.add': Method<H.HostAddParams, H.HostRow>;
  'host.list': Method<F.NoParams, H.HostRow[]>;
  'host.check': Method<H.HostNameParams, H.HostCheckResult>;
  'host.trust': Method<H.HostTrustParams, H.HostTrustResult>;
  'host.remove': Method<H.HostNameParams, H.HostRemoveResult>;
  'project.host': Method<H.ProjectHostParams, H.ProjectHostResult>;
  // the agent CLIs themselves: are they still read right (issue 39)
  calibrate: Method<C.CalibrateParams, C.CalibrateResult, C.CalibrateProgress>;
  // the person's annotations on what they decide on, and the Hand taking them (issue 40)
  annotate: Method<A.AnnotateParams, A.AnnotationRow>;
  annotations: Method<A.AnnotationsParams, A.AnnotationRow[]>;
  'annotations.take': Method<A.AnnotationsTakeParams, A.AnnotationRow[]>;
}

export type MethodName = keyof MethodMap;
export type ParamsOf<M extends MethodName> = MethodMap[M]['params'];
export type ResultOf<M extends MethodName> = MethodMap[M]['result'];
export type ProgressOf<M extends MethodName> = MethodMap[M]['progress'];

/** The names in the order the daemon lists them; the `satisfies` below keeps it equal to the map. */
export const METHODS = [
  // the fleet's core
  'ping', 'shutdown', 'annex', 'annex.propose', 'projects', 'projectSet', 'dispatch', 'status', 'wait', 'watch', 'read', 'report', 'send', 'keys', 'answer', 'stop',
  // the gates and what follows a worker's turn
  'land', 'approve', 'reject', 'landings', 'discard', 'close', 'relaunch', 'resume', 'cost',
  // the second witness, the review page, the Hand's read-only views
  'hook', 'review', 'survey', 'audience',
  // work that outlives a conversation
  'backlog.add', 'backlog.list', 'backlog.ready', 'backlog.show', 'backlog.start', 'backlog.hold', 'backlog.unhold', 'backlog.block', 'backlog.done', 'backlog.reopen', 'backlog.drop',
  'decisions', 'decide',
  'afk.on', 'afk.off', 'afk.digest', 'afk.status', 'journal',
  'notify.add', 'notify.list', 'notify.remove', 'notify.test', 'notify.log',
  'usage', 'usage.source', 'work.summary',
  // machines the fleet reaches over ssh
  'host.add', 'host.list', 'host.check', 'host.trust', 'host.remove', 'project.host',
  // the agent CLIs themselves
  'calibrate',
  // the person's annotations
  'annotate', 'annotations', 'annotations.take',
] as const satisfies readonly MethodName[];

// A name in the map but not in METHODS (or the reverse) does not compile.
type Missing = Exclude<MethodName, (typeof METHODS)[number]>;
const everyMethodListed: [Missing] extends [never] ? true : Missing = true;
void everyMethodListed;

/**
 * The methods anyone who reaches the socket may call: `ping` says only that a daemon answers,
 * and `hook` speaks for one worker by that worker's own capability. Every other method acts for,
 * or reads for, the person and needs the daemon's authority key (issue 24 item 1): a method
 * added later is the person's unless it is named here.
 */
export const OPEN_METHODS: readonly MethodName[] = ['ping', 'hook'];

/**
 * The person's own settings, never the Hand's (issue 38 item 10): where notifications go, which
 * machines the fleet reaches and where its checkouts are, the usage source, stopping the daemon,
 * and an annotation (issue 40: the person's words on the page, never the Hand's in their name).
 * A request that says it comes from the Hand (`via: 'hand'`: its MCP server, or its shell, whose
 * environment the kit marks with HAND_CALLER=hand) is refused them, naming the command for the
 * person's own terminal. The mark is the Hand's honest tooling's, not a proof: the kit's deny
 * rules keep its shell from the same commands.
 */
export const PERSON_ONLY_METHODS: readonly MethodName[] = ['shutdown', 'notify.add', 'notify.remove', 'usage.source', 'host.add', 'host.trust', 'host.remove', 'project.host', 'annotate'];
export { HAND_CALLER_ENV } from './hand-caller.ts';

export function isOpenMethod(name: unknown): boolean {
  return typeof name === 'string' && (OPEN_METHODS as readonly string[]).includes(name);
}

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && (METHODS as readonly string[]).includes(name);
}
