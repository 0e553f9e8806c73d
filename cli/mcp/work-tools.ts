/**
 * The MCP tools beyond the fleet's core (issue 22): the backlog, held decisions, away mode and
 * its journal, relaunch and discard, landings, the usage pulse, notifications, the review page's
 * URL and a project's permission posture. Each calls the daemon method the CLI command of the
 * same name calls, with the same params, so a tool's result is that command's `--json` object
 * and a refusal is the same error with the same text.
 */
import { z } from 'zod';
import { UsageError } from '../../contract/errors.ts';
import { AGENTS, HOLD_KINDS, TAKEN_AS } from '../../contract/vocabulary.ts';
import type { HomePaths } from '../../contract/home.ts';
import type { MethodName } from '../../contract/methods.ts';
import { call, type CallArgs } from '../client.ts';
import { definedOnly } from '../hand-ops.ts';
import { journalSince, parseDuration } from '../durations.ts';
import { briefFileText } from '../arguments.ts';
import { parseSince } from '../since.ts';

type Tool = <S extends z.ZodRawShape>(name: string, description: string, shape: S, fn: (args: z.objectOutputType<S, z.ZodTypeAny>) => Promise<unknown>) => void;

const item = z.string().describe('backlog item id');
const worker = z.string().describe('worker id');

export function registerWorkTools(tool: Tool, p: HomePaths): void {
  const daemon = <M extends MethodName>(method: M, ...args: CallArgs<M>) => call(p, method, ...args);

  tool('backlog_add', 'Add a queued backlog item for a registered project (hand backlog add). brief: path of a brief file whose text the item keeps.', {
    id: item, title: z.string(), project: z.string(), brief: z.string().optional(),
  }, (a) => daemon('backlog.add', { id: a.id, title: a.title, project: a.project, brief: briefFileText(a.brief) }));
  tool('backlog_list', 'Backlog items, every state but dropped unless state is given (hand backlog list).', { state: z.string().optional() }, (a) => daemon('backlog.list', { state: a.state }));
  tool('backlog_ready', 'Items ready to dispatch: queued, not held, every blocker done (hand backlog ready).', {}, () => daemon('backlog.ready'));
  tool('backlog_show', 'One backlog item in full (hand backlog show).', { id: item }, (a) => daemon('backlog.show', a));
  tool('backlog_start', 'Mark an item in flight without a worker (hand backlog start); dispatch --item does it for you.', { id: item }, (a) => daemon('backlog.start', a));
  tool('backlog_hold', 'Hold an item with the reason and what it waits for (hand backlog hold).', { id: item, reason: z.string(), kind: z.enum(HOLD_KINDS) }, (a) => daemon('backlog.hold', a));
  tool('backlog_unhold', 'Release a held item (hand backlog unhold).', { id: item }, (a) => daemon('backlog.unhold', a));
  tool('backlog_block', 'Record that an item waits for another to be done (hand backlog block).', { id: item, by: z.string().describe('the blocking item') }, (a) => daemon('backlog.block', a));
  tool('backlog_done', 'Close an item as done, with its PR and a note (hand backlog done).', { id: item, pr: z.string().optional(), note: z.string().optional() }, (a) => daemon('backlog.done', a));
  tool('backlog_reopen', 'Queue a done or dropped item again (hand backlog reopen).', { id: item }, (a) => daemon('backlog.reopen', a));
  tool('backlog_drop', 'Drop an item without doing it (hand backlog drop).', { id: item }, (a) => daemon('backlog.drop', a));

  tool('decisions', 'Questions parked workers left and review-gate findings, open ones unless all (hand decisions). Relay each to the person; never answer one yourself.', { all: z.boolean().optional() }, (a) => daemon('decisions', { all: a.all === true }));
  tool('decide', "Answer a decision with the person's words, or decline it with their reason (hand decide). The answer is typed into a live worker at an empty box, or a gone worker is relaunched with it.", {
    key: z.string().describe('decision key'), answer: z.string().optional(), declined: z.string().optional().describe('why it is closed without an answer'),
  }, (a) => daemon('decide', { key: a.key, answer: a.answer, declined: a.declined }));

  tool('afk_on', 'The person is away: hold the fleet, push what needs them, journal the rest (hand afk on).', { note: z.string().optional() }, (a) => daemon('afk.on', { note: a.note }));
  tool('afk_off', 'The person is back: the away account — waits on you (questions quoted), landed, broke, still running (hand afk off).', {}, () => daemon('afk.off'));
  tool('afk_status', 'Whether the person is away, since when, unread journal entries (hand afk status).', {}, () => daemon('afk.status'));
  tool('journal', 'The away journal since a time (hand journal). since: ISO time or a duration back such as 2h.', { since: z.string().optional() }, (a) =>
    daemon('journal', journalSince(a.since)));

  tool('relaunch', "Give a wedged or gone worker a fresh session in the same worktree and branch, with a progress note (hand relaunch). resume: continue the worker's own conversation instead (hand relaunch --resume), refused with why when it cannot be proved. Refused while it works unless force.", {
    id: worker, note: z.string().optional(), force: z.boolean().optional(), stall: z.string().optional().describe('stall threshold, e.g. 20m'), resume: z.boolean().optional().describe("continue its own conversation (no note)"),
  }, (a) => daemon('relaunch', { id: a.id, note: a.note, force: a.force === true, stallMs: a.stall ? parseDuration(a.stall, '--stall') : undefined, env: definedOnly(process.env), ...(a.resume === true && { resume: true }) }));
  tool('resume', 'Bring lost workers back, one at a time, each into its own conversation in the same worktree and branch, with one line typed saying the machine restarted (hand resume). ids, or allLost for every lost worker; a worker whose session cannot be proved is refused with why and the fresh relaunch that remains.', {
    ids: z.array(worker).optional(), allLost: z.boolean().optional(),
  }, (a) => {
    if (!a.allLost && !a.ids?.length) throw new UsageError('bad-request', 'which workers? hand resume <id>…, or hand resume --all-lost.');
    return daemon('resume', { ...(a.allLost ? { allLost: true } : { ids: a.ids }), env: definedOnly(process.env) });
  });
  tool('cost', "What each worker, project and day spent: tokens from the agents' own session records, USD at the price table; a model it has no price for is unknown, never guessed (hand cost).", { days: z.number().int().min(1).max(366).optional() }, (a) => daemon('cost', { ...(a.days !== undefined && { days: a.days }) }));
  tool('close', "End a read-only worker (dispatched with readOnly): its report is the result; it is stopped, its worktree removed, brief and report archived, its item done (hand close).", {
    id: worker, force: z.boolean().optional().describe('without a report, or while it still works'),
  }, (a) => daemon('close', { id: a.id, ...(a.force === true ? { force: true } : {}) }));
  tool('discard', 'Give up a finished worker: worktree removed through git (never forced), pane closed, brief and report archived (hand discard).', {
    id: worker.optional(), allFinished: z.boolean().optional(), deleteBranch: z.boolean().optional(), discardCommits: z.boolean().optional(), forget: z.boolean().optional().describe("drop the record, leave a worktree git cannot remove on disk"),
  }, (a) => {
    if (!a.id && !a.allFinished) throw new UsageError('bad-discard', 'which worker? hand discard <id>, or hand discard --all-finished.');
    if (a.discardCommits && !a.deleteBranch) throw new UsageError('bad-discard', '--discard-commits only confirms --delete-branch; pass both, or neither.');
    return daemon('discard', { id: a.id, allFinished: a.allFinished === true, deleteBranch: a.deleteBranch === true, discardCommits: a.discardCommits === true, forget: a.forget === true });
  });
  tool('landings', 'Open landing gates waiting for the person (hand landings).', {}, () => daemon('landings'));
  tool('project_set', "Change a project's permission posture, its default agent (what dispatch runs without agent), its daily budget (budget: 20usd/day, or none) or whether its lost workers are resumed by themselves (resumeLost: auto|ask), or accept a move of its base branch as the person's own (acceptBase), on the person's word (hand project set).", {
    name: z.string(), permissions: z.enum(['off', 'edits', 'ask']).optional(), agent: z.enum(AGENTS).optional(), acceptBase: z.boolean().optional(), budget: z.string().optional().describe('e.g. 20usd/day; none removes it'), resumeLost: z.enum(['auto', 'ask']).optional(),
  }, (a) => daemon('projectSet', a));

  tool('usage', 'The usage window nearest its limit; dispatch refuses at 90 % or more (hand usage).', {}, () => daemon('usage'));
  tool('hosts', 'Machines the fleet reaches over ssh, local first, with the facts of their last check (hand host list).', {}, () => daemon('host.list'));
  tool('host_check', 'Checks a host: ssh in batch mode with a known host key, git, tmux, each agent CLI there with its version, the state directory, and gh and no-mistakes for push-posture projects — each yes/no/could-not-tell with its fix (hand host check).', { name: z.string().describe('host name') }, (a) => daemon('host.check', { name: a.name }));
  tool('notify_list', 'Where notifications go, and which are failing (hand notify list).', {}, () => daemon('notify.list'));
  tool('notify_test', 'Send a test notification to one target or all (hand notify test).', { id: z.string().optional() }, (a) => daemon('notify.test', { id: a.id }));
  tool('annotations', "The person's notes on a worker's review page (hand annotations): on an item (R- requirement, C- browser check, Q- question from the brief, F- file of the diff) or general, the new ones unless all. Each says what it is on and what to do next: before the brief is approved, revise the brief with it; after, steer the worker with it. The person's words: carry them, never add your own.", {
    id: worker.optional().describe("one worker's"),
    since: z.string().optional().describe('written since: a duration back (2h) or an ISO time'),
    all: z.boolean().optional().describe('taken ones too'),
  }, (a) => daemon('annotations', { ...(a.id ? { id: a.id } : {}), ...(a.since ? { sinceMs: parseSince(a.since) } : {}), ...(a.all === true ? { all: true } : {}) }));
  tool('annotations_take', 'Mark annotations taken once you acted on them (hand annotations take): as revised-brief (the brief was revised and dispatched again), steer (sent to the worker) or answered (answered the person in chat).', {
    n: z.array(z.number().int().positive()).describe('the annotations\' numbers'),
    as: z.enum(TAKEN_AS),
    note: z.string().optional().describe('what was done, in a line'),
  }, (a) => daemon('annotations.take', { n: a.n, as: a.as, ...(a.note ? { note: a.note } : {}) }));
  tool('review_url', "The review page's address, for the person to open (hand review); with id, the link that opens that worker's page (its brief, screen, diff and gates) - give that link as it is, never add to it. Give them the link; never open it or approve from it yourself. signOutAll: end every signed-in page session first (hand review --sign-out-all), on the person's word. The result's publicUrl is the address the person's own tunnel reaches the page by (theirs to set: hand review --public-url).", {
    id: worker.optional().describe("a worker's id: the link opens that worker's page"),
    signOutAll: z.boolean().optional().describe('end every page session and void unused sign-in files'),
  }, (a) => daemon('review', { ...(a.id ? { id: a.id } : {}), ...(a.signOutAll === true ? { signOutAll: true } : {}) }));
}
