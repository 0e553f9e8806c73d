/**
 * Every method the daemon serves, named once, in one table: what its caller sends and what it
 * answers (its types), who may call it, and which face serves it beyond the CLI. The method list,
 * the typed map, the open and person-only lists and the MCP faces are all read from this table,
 * so none of them can drift from another. The client's `call(paths, method, params)` is typed by
 * it end to end; the daemon's table (daemon/method-table.ts) must give each name, family by
 * family, an edge parser and a handler of exactly its types, or it does not compile; the socket
 * server dispatches only these names (looked up in a Map, so `__proto__` or `toString` is an
 * unknown method, never a prototype's function).
 *
 * Adding a method: its params and result in its family's file (contract/methods/<family>.ts), one
 * entry here, and its parser and handler in its family's table (daemon/<family>/).
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

/** Which MCP tool serves a method, or why it is the CLI's (or the daemon's) alone. */
export type Face = { tool: string } | { cliOnly: string };

/**
 * Who may call a method beyond the person's own faces (which hold the daemon's authority key):
 * - absent: the person and the Hand, with the authority key (issue 24 item 1: a method added
 *   later is the person's unless it says otherwise);
 * - `open`: anyone who reaches the socket (`ping` says only that a daemon answers; `hook` speaks
 *   for one worker by that worker's own capability);
 * - `person`: the person's own setting, never the Hand's (issue 38 item 10): a request that says
 *   it comes from the Hand (`via: 'hand'`: its MCP server, or its shell, whose environment the kit
 *   marks with HAND_CALLER=hand) is refused it, naming the command for the person's own terminal.
 *   The mark is the Hand's honest tooling's, not a proof: the kit's deny rules keep its shell
 *   from the same commands. Its face is cliOnly, saying whose it is;
 * - `personOnlyParams`: the method is the Hand's, but these parameters make it the person's own
 *   setting (issue 42: where the page is reachable from beyond this machine opens the way to the
 *   person's answers), refused to the Hand as `person` is, naming `command`.
 */
export type Access = 'open' | 'person' | { personOnlyParams: readonly string[]; command: string };

/** One entry of the table; its types ride along as a phantom (`types` is never set, only read by the compiler). */
interface MethodEntry<P, R, Progress> {
  face: Face;
  access?: Access;
  readonly types?: Method<P, R, Progress>;
}

function method<P, R, Progress = never>(face: Face, access?: Access): MethodEntry<P, R, Progress> {
  return access === undefined ? { face } : { face, access };
}
const tool = (name: string): Face => ({ tool: name });
const cliOnly = (why: string): Face => ({ cliOnly: why });

/** The table, by the families contract/methods/ and daemon/ are cut by; the order is the order the daemon lists them in. */
export const METHOD_FAMILIES = {
  // the fleet's core, and the worker's second witness (daemon/fleet/)
  fleet: {
    ping: method<F.NoParams, F.PingResult>(cliOnly('hand daemon start/status: the daemon itself, not the fleet'), 'open'),
    shutdown: method<F.NoParams, F.ShutdownResult>(cliOnly('hand daemon stop: the person stops the daemon, never the Hand'), 'person'),
    annex: method<F.AnnexParams, F.AnnexResult>(tool('annex')),
    'annex.propose': method<F.AnnexProposeParams, F.AnnexProposal>(tool('annex_propose')),
    projects: method<F.NoParams, F.ProjectRecord[]>(tool('projects')),
    projectSet: method<F.ProjectSetParams, F.ProjectSetResult>(tool('project_set')),
    dispatch: method<F.DispatchParams, F.DispatchResult>(tool('dispatch')),
    status: method<F.StatusParams, F.WorkerStatus[]>(tool('status')),
    wait: method<F.WaitParams, F.WaitReport, F.WaitProgress>(tool('wait')),
    watch: method<F.WatchParams, F.WatchResult, F.WatchProgress>(cliOnly('hand watch streams lines for a Monitor; an MCP call cannot stream to the session')),
    read: method<F.ReadParams, F.ReadResult>(tool('read')),
    report: method<F.ReportParams, F.ReportResult>(tool('report')),
    send: method<F.SendParams, F.SendResult>(tool('send')),
    keys: method<F.KeysParams, F.KeysResult>(tool('keys')),
    answer: method<F.AnswerParams, F.AnswerResult>(tool('answer')),
    stop: method<F.StopParams, F.StopResult>(tool('stop')),
    hook: method<F.HookParams, F.HookResult>(cliOnly("hand hook is Claude Code's hook in a worker, the worker's second witness"), 'open'),
  },
  // the gates and what follows a worker's turn; the review page and the Hand's read-only views (daemon/gates/)
  gates: {
    land: method<G.LandParams, G.LandResult>(tool('land')),
    approve: method<G.ApproveParams, G.ApproveResult>(tool('approve')),
    reject: method<G.RejectParams, G.RejectResult>(tool('reject')),
    landings: method<F.NoParams, G.LandingRow[]>(tool('landings')),
    discard: method<G.DiscardParams, G.DiscardResult>(tool('discard')),
    close: method<G.CloseParams, G.CloseResult>(tool('close')),
    relaunch: method<G.RelaunchParams, G.RelaunchResult>(tool('relaunch')),
    review: method<G.ReviewParams, G.ReviewResult>(tool('review_url'), { personOnlyParams: ['publicUrl'], command: 'hand review --public-url <url>|off' }),
    survey: method<F.NoParams, G.Survey>(tool('survey')),
    audience: method<G.AudienceParams, G.Audience>(tool('audience')),
  },
  // a worker's own conversation and what it spent (daemon/sessions/, issue 41)
  sessions: {
    resume: method<S.ResumeParams, S.ResumeResult>(tool('resume')),
    cost: method<S.CostParams, S.CostResult>(tool('cost')),
  },
  // work that outlives a conversation (daemon/work/)
  work: {
    'backlog.add': method<W.BacklogAddParams, W.ItemRow>(tool('backlog_add')),
    'backlog.list': method<W.BacklogListParams, W.ItemRow[]>(tool('backlog_list')),
    'backlog.ready': method<F.NoParams, W.ItemRow[]>(tool('backlog_ready')),
    'backlog.show': method<W.ItemIdParams, W.ItemRow>(tool('backlog_show')),
    'backlog.start': method<W.ItemIdParams, W.ItemRow>(tool('backlog_start')),
    'backlog.hold': method<W.BacklogHoldParams, W.ItemRow>(tool('backlog_hold')),
    'backlog.unhold': method<W.ItemIdParams, W.ItemRow>(tool('backlog_unhold')),
    'backlog.block': method<W.BacklogBlockParams, W.ItemRow>(tool('backlog_block')),
    'backlog.done': method<W.BacklogDoneParams, W.BacklogDoneResult>(tool('backlog_done')),
    'backlog.reopen': method<W.ItemIdParams, W.ItemRow>(tool('backlog_reopen')),
    'backlog.drop': method<W.ItemIdParams, W.ItemRow>(tool('backlog_drop')),
    decisions: method<W.DecisionsParams, W.DecisionRow[]>(tool('decisions')),
    decide: method<W.DecideParams, W.DecideResult>(tool('decide')),
    'afk.on': method<W.AfkOnParams, W.AfkOnResult>(tool('afk_on')),
    'afk.off': method<F.NoParams, W.AfkOffResult>(tool('afk_off')),
    'afk.digest': method<F.NoParams, W.AwayAccount | null>(cliOnly('part of hand digest (the digest tool and the SessionStart digest carry the away account: awayAccount)')),
    'afk.status': method<F.NoParams, W.AfkStatusResult>(tool('afk_status')),
    journal: method<W.JournalParams, W.JournalRow[]>(tool('journal')),
    'notify.add': method<W.NotifyAddParams, W.NotifyAddResult>(cliOnly('where notifications go is the person’s setting (hand notify add), never the Hand’s'), 'person'),
    'notify.list': method<F.NoParams, W.NotifyListRow[]>(tool('notify_list')),
    'notify.remove': method<W.NotifyRemoveParams, W.NotifyRemoveResult>(cliOnly('the person removes a notification target (hand notify remove)'), 'person'),
    'notify.test': method<W.NotifyTestParams, W.NotifyTestRow[]>(tool('notify_test')),
    'notify.log': method<F.NoParams, W.DeliveryRow[]>(cliOnly('a delivery log for debugging notifications (hand notify log)')),
    usage: method<F.NoParams, W.UsageResult>(tool('usage')),
    'usage.source': method<W.UsageSourceParams, W.UsageSourceResult>(cliOnly('the usage source is a command the person configures (hand usage source)'), 'person'),
    'work.summary': method<F.NoParams, W.WorkSummary>(cliOnly('part of hand digest and survey (their tools carry it)')),
  },
  // machines the fleet reaches over ssh (daemon/hosts/)
  hosts: {
    'host.add': method<H.HostAddParams, H.HostRow>(cliOnly('which machines the fleet may reach, and their keys, is the person’s setting (hand host add), never the Hand’s'), 'person'),
    'host.list': method<F.NoParams, H.HostRow[]>(tool('hosts')),
    'host.check': method<H.HostNameParams, H.HostCheckResult>(tool('host_check')),
    'host.trust': method<H.HostTrustParams, H.HostTrustResult>(cliOnly('accepting a host’s new key is the person’s, after verifying it (hand host trust), never the Hand’s'), 'person'),
    'host.remove': method<H.HostNameParams, H.HostRemoveResult>(cliOnly('the person removes a machine from the fleet (hand host remove)'), 'person'),
    'project.host': method<H.ProjectHostParams, H.ProjectHostResult>(cliOnly("where the person's checkouts are on each machine is the person's setting (hand project host), never the Hand's"), 'person'),
  },
  // the agent CLIs themselves: are they still read right (daemon/calibration/, issue 39)
  calibration: {
    calibrate: method<C.CalibrateParams, C.CalibrateResult, C.CalibrateProgress>(tool('calibrate')),
  },
  // the person's annotations on what they decide on, and the Hand taking them (daemon/annotations/, issue 40)
  annotations: {
    annotate: method<A.AnnotateParams, A.AnnotationRow>(cliOnly("an annotation is the person's own words (the review page, or hand annotate in their terminal), never the Hand's"), 'person'),
    annotations: method<A.AnnotationsParams, A.AnnotationRow[]>(tool('annotations')),
    'annotations.take': method<A.AnnotationsTakeParams, A.AnnotationRow[]>(tool('annotations_take')),
  },
};

export type FamilyName = keyof typeof METHOD_FAMILIES;
/** The names of one family: what its table in daemon/<family>/ must serve, no more and no fewer. */
export type MethodsOf<F extends FamilyName> = Extract<keyof (typeof METHOD_FAMILIES)[F], MethodName>;

const { fleet, gates, sessions, work, hosts, calibration, annotations } = METHOD_FAMILIES;
const TABLE = { ...fleet, ...gates, ...sessions, ...work, ...hosts, ...calibration, ...annotations };
type Table = typeof TABLE;

export type MethodMap = { [M in keyof Table]: NonNullable<Table[M]['types']> };
export type MethodName = keyof MethodMap;
export type ParamsOf<M extends MethodName> = MethodMap[M]['params'];
export type ResultOf<M extends MethodName> = MethodMap[M]['result'];
export type ProgressOf<M extends MethodName> = MethodMap[M]['progress'];

/** Every name, in the table's order. */
export const METHODS = Object.keys(TABLE) as MethodName[];
// A family left out of TABLE, or a name in two families (the later would hide the earlier), fails at load.
if (METHODS.length !== Object.values(METHOD_FAMILIES).reduce((n, f) => n + Object.keys(f).length, 0)) {
  throw new Error('contract/methods.ts: a method is named in two families, or a family is missing from the table');
}

const accessOf = (m: MethodName): Access | undefined => (TABLE[m] as MethodEntry<unknown, unknown, unknown>).access;

/** Each method's face: its MCP tool, or why it has none (cli/mcp/faces.ts). */
export const FACES = Object.fromEntries(METHODS.map((m) => [m, TABLE[m].face])) as Record<MethodName, Face>;
/** The methods anyone who reaches the socket may call (access `open`). */
export const OPEN_METHODS: readonly MethodName[] = METHODS.filter((m) => accessOf(m) === 'open');
/** The person's own settings, never the Hand's (access `person`). */
export const PERSON_ONLY_METHODS: readonly MethodName[] = METHODS.filter((m) => accessOf(m) === 'person');
/** Parameters that make a method the person's own setting (access `personOnlyParams`). */
export const PERSON_ONLY_PARAMS: Partial<Record<MethodName, { params: readonly string[]; command: string }>> = Object.fromEntries(
  METHODS.flatMap((m) => {
    const a = accessOf(m);
    return typeof a === 'object' ? [[m, { params: a.personOnlyParams, command: a.command }]] : [];
  }),
);
export { HAND_CALLER_ENV } from './hand-caller.ts';

export function isOpenMethod(name: unknown): boolean {
  return typeof name === 'string' && (OPEN_METHODS as readonly string[]).includes(name);
}

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && (METHODS as readonly string[]).includes(name);
}
