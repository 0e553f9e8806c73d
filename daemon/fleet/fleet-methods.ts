/**
 * The fleet's core methods, each with its edge parser, its handler and the rules that cut across
 * it, side by side (method-entry.ts says what an entry is; the handlers' bodies are in
 * handlers.ts, project-handlers.ts and hook-handlers.ts beside this file).
 */
import { UsageError } from '../../contract/errors.ts';
import { UNTILS, isOneOf } from '../../contract/vocabulary.ts';
import { badUntil } from '../../contract/refusals.ts';
import { parseNote } from '../../contract/hook-note.ts';
import { checkSendableText } from '../../io/text/sendable-text.ts';
import { parseOneKey } from '../../io/terminal/keys.ts';
import { parsePermissionPosture, type PermissionPosture } from '../../io/agent/claude/permissions.ts';
import { parseBudget } from '../../actors/usage/budget.ts';
import { dispatchUnderRules } from '../cross-rules.ts';
import { none, type FamilyTable } from '../method-entry.ts';
import { agentParam, backendParam, flag, idParam, optPositive, optText, pathStr, postureParam, str, stringsParam } from '../params.ts';

/** `--permissions` when given; an unknown word is refused naming the three. */
const permissionsParam = (v: unknown): PermissionPosture | undefined => (v === undefined || v === null || v === '' ? undefined : parsePermissionPosture(v));

/** `--budget`: `20usd/day` (or a number of dollars a day); `none` removes it; anything else is refused naming the form. */
function budgetParam(v: unknown): number | null | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === 'none') return null;
  const n = typeof v === 'number' ? (v > 0 && Number.isFinite(v) ? v : null) : typeof v === 'string' ? parseBudget(v) : null;
  if (n === null) throw new UsageError('bad-budget', `--budget ${JSON.stringify(v)} is not a daily budget: write it as 20usd/day (dollars a day, more than 0), or none to remove it.`, { key: 'budget' });
  return n;
}

function badResumeLost(v: unknown): never {
  throw new UsageError('bad-request', `--resume-lost ${JSON.stringify(v)}: auto (lost workers are resumed when the daemon finds them lost) or ask (the person runs hand resume).`, { key: 'resumeLost' });
}

export const FLEET_METHODS: FamilyTable<'fleet'> = {
  ping: { parse: none, handle: (w) => w.core.ping },
  shutdown: { parse: none, handle: (w) => w.core.shutdown },
  annex: {
    parse: (p) => ({
      repo: pathStr(p, 'repo'), posture: postureParam(p), name: str(p, 'name', false) || undefined, yolo: flag(p, 'yolo'),
      permissions: permissionsParam(p.permissions), agent: agentParam(p), env: stringsParam(p.env),
    }),
    handle: (w) => w.core.annex,
  },
  'annex.propose': { parse: (p) => ({ repo: pathStr(p, 'repo'), env: stringsParam(p.env) }), handle: (w) => w.core['annex.propose'] },
  projects: { parse: none, handle: (w) => w.core.projects },
  projectSet: {
    parse: (p) => {
      const name = typeof p.name === 'string' ? p.name : '';
      if (!name) throw new UsageError('bad-request', 'missing project name: hand project set <name> --permissions off|edits|ask | --agent <agent> | --budget <n>usd/day | --resume-lost auto|ask', { key: 'name' });
      const agent = agentParam(p);
      // `budget` as a person writes it (20usd/day), or budgetUsdPerDay as the typed params say it (a number, null to remove).
      const budget = budgetParam(p.budget ?? (p.budgetUsdPerDay === null ? 'none' : p.budgetUsdPerDay));
      const resumeLost = p.resumeLost === undefined || p.resumeLost === null ? undefined : p.resumeLost === 'auto' || p.resumeLost === 'ask' ? p.resumeLost : badResumeLost(p.resumeLost);
      return { name, permissions: permissionsParam(p.permissions), ...(agent && { agent }), ...(p.acceptBase === true ? { acceptBase: true } : {}), ...(budget !== undefined && { budgetUsdPerDay: budget }), ...(resumeLost && { resumeLost }) };
    },
    handle: (w) => w.project.projectSet,
  },
  dispatch: {
    // Types only: the id, repo and brief may come from a backlog item, so dispatchRequest (params.ts)
    // requires them after the usage and item rules have had their say.
    parse: (p) => ({
      id: optText(p, 'id'), item: optText(p, 'item'), repo: optText(p, 'repo'), brief: optText(p, 'brief'),
      readPaths: Array.isArray(p.readPaths) ? p.readPaths.filter((r): r is string => typeof r === 'string') : undefined,
      agent: agentParam(p), backend: backendParam(p),
      stallMs: optPositive(p, 'stallMs'), unclassifiedMs: optPositive(p, 'unclassifiedMs'),
      env: stringsParam(p.env), envAdd: stringsParam(p.envAdd),
      taskKind: typeof p.taskKind === 'string' ? p.taskKind : undefined, workspace: optText(p, 'workspace'),
      host: optText(p, 'host'),
      ...(flag(p, 'strict') ? { strict: true } : {}),
      ...(flag(p, 'quick') ? { quick: true } : {}),
      ...(flag(p, 'readOnly') ? { readOnly: true } : {}),
    }),
    // The usage limit, then a backlog item's own checks, then dispatch's refusals.
    handle: ({ core, rules }) => async (p) => dispatchUnderRules(rules, core.dispatch, p),
  },
  status: {
    parse: (p) => ({ id: str(p, 'id', false) || undefined }),
    handle: ({ core, rules, sessions }) => async (p) => sessions.decorate(rules.withItemAndDecision(await core.status(p))),
  },
  wait: {
    parse: (p) => {
      const id = idParam(p);
      const until = str(p, 'until', false) || 'any';
      if (!isOneOf(UNTILS, until)) throw badUntil(until);
      return { id, until, timeoutMs: optPositive(p, 'timeoutMs') };
    },
    handle: (w) => w.core.wait,
  },
  watch: { parse: (p) => ({ timeoutMs: optPositive(p, 'timeoutMs'), needsYou: flag(p, 'needsYou') }), handle: (w) => w.core.watch },
  read: { parse: (p) => ({ id: idParam(p), scrollback: optPositive(p, 'scrollback') }), handle: (w) => w.core.read },
  report: { parse: (p) => ({ id: idParam(p) }), handle: (w) => w.core.report },
  // A parked worker's next words are the person's answer, through decide: text (or an Enter that
  // would submit what is in its box) would start a new turn and leave the decision open. Not
  // overridden by --allow-non-empty-box (that is about the box, not the decision).
  // What types into a worker waits its turn in the worker's lane; the refusals come first.
  send: {
    parse: (p) => {
      const id = idParam(p);
      // Text is text: control bytes, empty and whitespace-only text are refused here (issue 17 #4, #10).
      return { id, text: checkSendableText(typeof p.text === 'string' ? p.text : '', id), allowNonEmptyBox: flag(p, 'allowNonEmptyBox') };
    },
    handle: ({ core, rules, inLane }) => async (p, ctx) => {
      rules.refuseIfParked(p.id, 'sent text: a text would start a new turn and leave the decision open');
      return inLane(p.id, () => core.send(p, ctx));
    },
  },
  keys: {
    parse: (p) => {
      const id = idParam(p);
      const key = str(p, 'key');
      parseOneKey(key); // one key per call: a name that is not one key is refused here
      return { id, key, allowNonEmptyBox: flag(p, 'allowNonEmptyBox') };
    },
    handle: ({ core, rules, inLane }) => async (p, ctx) => {
      if (p.key === 'enter') rules.refuseIfParked(p.id, 'sent an Enter: it would submit what is in its box as a new turn');
      return inLane(p.id, () => core.keys(p, ctx));
    },
  },
  answer: {
    // The option's number as the dialog shows it, and the fingerprint of the dialog the caller saw.
    parse: (p) => {
      const id = idParam(p);
      const option = typeof p.option === 'string' && /^\d{1,2}$/.test(p.option.trim()) ? Number(p.option) : p.option;
      if (typeof option !== 'number' || !Number.isInteger(option) || option < 1) {
        throw new UsageError('bad-option', `the option is the number the dialog shows (1, 2, …): hand answer ${id} <n> --fingerprint <fp>.`, { id });
      }
      const fingerprint = typeof p.fingerprint === 'string' ? p.fingerprint.trim() : '';
      if (!/^[0-9a-f]{16}$/.test(fingerprint)) {
        throw new UsageError('fingerprint-required', `answer needs the fingerprint of the dialog you read (dialog.fingerprint in hand read ${id} --json), so a dialog that changed is never answered.`, { id });
      }
      return { id, option, fingerprint };
    },
    // The fingerprint is checked in the lane, with the keys: a second answer to the same dialog finds it answered.
    handle: ({ core, inLane }) => async (p, ctx) => inLane(p.id, () => core.answer(p, ctx)),
  },
  stop: {
    parse: (p) => ({ id: str(p, 'id'), timeoutMs: optPositive(p, 'timeoutMs'), force: flag(p, 'force') }),
    handle: ({ core, rules, inLane }) => async (p, ctx) => {
      if (p.force !== true) rules.refuseIfParked(p.id, 'torn down', `stop it anyway with hand stop ${p.id} --force`);
      return inLane(p.id, () => core.stop(p, ctx));
    },
  },
  // Claude Code's hooks, the worker's second witness (actors/witness.ts).
  hook: {
    parse: (p) => {
      const note = parseNote(p.note);
      if (!note) throw new UsageError('bad-hook-note', 'hook takes {note: {id, event, at, …}} as `hand hook <event>` sends it; this one is not.', {});
      return { note };
    },
    handle: (w) => w.hook.hook,
  },
};
