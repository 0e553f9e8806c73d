/**
 * The daemon's edge: one parser per method, run ONCE by the socket server on the raw params of a
 * request, turning them into the method's typed params (contract/methods.ts) or refusing with
 * the message a person can act on. The handlers take the typed params and trust them. Typed as
 * ParamParsers, so a method without a parser, or a parser that returns another shape, does not
 * compile.
 */
import { isPrototypeName, prototypeNameWhy } from '../contract/plain-name.ts';
import { UsageError } from '../contract/errors.ts';
import { EVERY_AGENT } from '../contract/methods/calibration.ts';
import type { ParamParsers, WireObject } from '../contract/protocol.ts';
import { HOLD_KINDS, UNTILS, isOneOf } from '../contract/vocabulary.ts';
import { badHoldKind, badUntil } from '../contract/refusals.ts';
import { parseNote } from '../contract/hook-note.ts';
import { checkSendableText, refuseInvisible } from '../io/text/sendable-text.ts';
import { ANNOTATION_MAX_CHARS, GENERAL_ITEM, ITEM_ID, TAKEN_AS } from '../contract/methods/annotations.ts';
import { parseOneKey } from '../io/terminal/keys.ts';
import { parsePermissionPosture, type PermissionPosture } from '../io/agent/claude/permissions.ts';
import { parseBudget } from '../actors/usage/budget.ts';
import { agentParam, backendParam, flag, idParam, optPositive, optText, pathStr, positiveParam, postureParam, str, stringsParam } from './params.ts';

type Raw = WireObject;
const none = () => ({});

/** A required text field of the work methods: its refusal names what it is. */
function text(p: Raw, key: string, what: string): string {
  const v = p[key];
  if (typeof v === 'string' && v.trim()) return v;
  throw new UsageError('bad-request', `missing ${what} (${key})`, { key });
}
/** An optional text field of the work methods: blank is absent. */
const opt = (p: Raw, key: string): string | undefined => {
  const v = p[key];
  return typeof v === 'string' && v.trim() ? v : undefined;
};
const stringList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);
/** `--permissions` when given; an unknown word is refused naming the three. */
const permissionsParam = (v: unknown): PermissionPosture | undefined => (v === undefined || v === null || v === '' ? undefined : parsePermissionPosture(v));
const itemId = (p: Raw) => ({ id: text(p, 'id', 'the item id') });
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
const idList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : typeof v === 'string' && v !== '' ? [v] : undefined);

export const PARAM_PARSERS: ParamParsers = {
  ping: none,
  shutdown: none,
  annex: (p) => ({
    repo: pathStr(p, 'repo'), posture: postureParam(p), name: str(p, 'name', false) || undefined, yolo: flag(p, 'yolo'),
    permissions: permissionsParam(p.permissions), agent: agentParam(p), env: stringsParam(p.env),
  }),
  'annex.propose': (p) => ({ repo: pathStr(p, 'repo'), env: stringsParam(p.env) }),
  close: (p) => ({ id: text(p, 'id', 'the worker id'), ...(flag(p, 'force') ? { force: true } : {}) }),
  projects: none,
  projectSet: (p) => {
    const name = typeof p.name === 'string' ? p.name : '';
    if (!name) throw new UsageError('bad-request', 'missing project name: hand project set <name> --permissions off|edits|ask | --agent <agent> | --budget <n>usd/day | --resume-lost auto|ask', { key: 'name' });
    const agent = agentParam(p);
    // `budget` as a person writes it (20usd/day), or budgetUsdPerDay as the typed params say it (a number, null to remove).
    const budget = budgetParam(p.budget ?? (p.budgetUsdPerDay === null ? 'none' : p.budgetUsdPerDay));
    const resumeLost = p.resumeLost === undefined || p.resumeLost === null ? undefined : p.resumeLost === 'auto' || p.resumeLost === 'ask' ? p.resumeLost : badResumeLost(p.resumeLost);
    return { name, permissions: permissionsParam(p.permissions), ...(agent && { agent }), ...(p.acceptBase === true ? { acceptBase: true } : {}), ...(budget !== undefined && { budgetUsdPerDay: budget }), ...(resumeLost && { resumeLost }) };
  },
  // Types only: the id, repo and brief may come from a backlog item, so dispatchRequest (params.ts)
  // requires them after the usage and item rules have had their say.
  dispatch: (p) => ({
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
  status: (p) => ({ id: str(p, 'id', false) || undefined }),
  wait: (p) => {
    const id = idParam(p);
    const until = str(p, 'until', false) || 'any';
    if (!isOneOf(UNTILS, until)) throw badUntil(until);
    return { id, until, timeoutMs: optPositive(p, 'timeoutMs') };
  },
  watch: (p) => ({ timeoutMs: optPositive(p, 'timeoutMs'), needsYou: flag(p, 'needsYou') }),
  read: (p) => ({ id: idParam(p), scrollback: optPositive(p, 'scrollback') }),
  report: (p) => ({ id: idParam(p) }),
  send: (p) => {
    const id = idParam(p);
    // Text is text: control bytes, empty and whitespace-only text are refused here (issue 17 #4, #10).
    return { id, text: checkSendableText(typeof p.text === 'string' ? p.text : '', id), allowNonEmptyBox: flag(p, 'allowNonEmptyBox') };
  },
  keys: (p) => {
    const id = idParam(p);
    const key = str(p, 'key');
    parseOneKey(key); // one key per call: a name that is not one key is refused here
    return { id, key, allowNonEmptyBox: flag(p, 'allowNonEmptyBox') };
  },
  // The option's number as the dialog shows it, and the fingerprint of the dialog the caller saw.
  answer: (p) => {
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
  stop: (p) => ({ id: str(p, 'id'), timeoutMs: optPositive(p, 'timeoutMs'), force: flag(p, 'force') }),

  // The word on agent settings is a literal true, never a truthy string (docs/2026-12-06-…).
  land: (p) => ({ id: idParam(p), path: optText(p, 'path'), ...(p.acceptAgentSettings === true ? { acceptAgentSettings: true } : {}), ...(p.rebase === true ? { rebase: true } : {}) }),
  approve: (p) => ({ id: idParam(p), path: optText(p, 'path'), ...(p.acceptAgentSettings === true ? { acceptAgentSettings: true } : {}) }),
  reject: (p) => {
    const id = idParam(p);
    const reason = typeof p.reason === 'string' ? p.reason.trim() : '';
    if (!reason) throw new UsageError('reason-required', `a rejection needs a reason the worker can act on: hand reject ${id} --reason "<why>".`, { id });
    return { id, reason };
  },
  landings: none,
  discard: (p) => ({
    id: typeof p.id === 'string' && p.id !== '' ? p.id : undefined,
    allFinished: flag(p, 'allFinished'), deleteBranch: flag(p, 'deleteBranch'), discardCommits: flag(p, 'discardCommits'), forget: flag(p, 'forget'),
  }),
  relaunch: (p) => {
    const id = typeof p.id === 'string' ? p.id : '';
    if (!id) throw new UsageError('bad-request', 'which worker? hand relaunch <id> [--note <text|file>] [--force] [--resume]', { key: 'id' });
    if (p.resume === true && (p.note !== undefined || p.noteFile !== undefined)) throw new UsageError('bad-request', '--resume continues the conversation as it was: it takes no note (a fresh relaunch does: hand relaunch <id> --note …).', { key: 'note' });
    if (p.note !== undefined && typeof p.note !== 'string') throw new UsageError('bad-request', '--note takes text or a file path.', { key: 'note' });
    if (p.noteFile !== undefined && (typeof p.noteFile !== 'string' || p.noteFile === '')) throw new UsageError('bad-request', 'noteFile takes the path of a note file.', { key: 'noteFile' });
    if (p.note !== undefined && p.noteFile !== undefined) throw new UsageError('bad-request', 'give a note as text or as a file, not both.', { key: 'noteFile' });
    return {
      id, note: p.note, noteFile: p.noteFile, force: flag(p, 'force'),
      // the same bounds as dispatch's --stall: a bad value is refused, never ignored
      stallMs: p.stallMs === undefined ? undefined : positiveParam(p, 'stallMs', 0),
      env: stringsParam(p.env), envAdd: stringsParam(p.envAdd),
      ...(p.resume === true ? { resume: true } : {}),
    };
  },
  resume: (p) => {
    const ids = idList(p.ids);
    const allLost = flag(p, 'allLost');
    if (!allLost && !ids?.length) throw new UsageError('bad-request', 'which workers? hand resume <id>…, or hand resume --all-lost.', { key: 'ids' });
    if (allLost && ids?.length) throw new UsageError('bad-request', 'name workers or pass --all-lost, not both.', { key: 'ids' });
    return { ...(ids?.length && { ids }), ...(allLost && { allLost: true }), env: stringsParam(p.env), envAdd: stringsParam(p.envAdd) };
  },
  cost: (p) => {
    const days = p.days === undefined ? undefined : positiveParam(p, 'days', 0);
    if (days !== undefined && (!Number.isInteger(days) || days > 366)) throw new UsageError('bad-request', '--days takes a whole number of days from 1 to 366.', { key: 'days' });
    return { ...(days !== undefined && { days }) };
  },

  hook: (p) => {
    const note = parseNote(p.note);
    if (!note) throw new UsageError('bad-hook-note', 'hook takes {note: {id, event, at, …}} as `hand hook <event>` sends it; this one is not.', {});
    return { note };
  },
  review: (p) => {
    const id = str(p, 'id', false);
    const publicUrl = str(p, 'publicUrl', false);
    return { ...(p.login === true ? { login: true } : {}), ...(p.signOutAll === true ? { signOutAll: true } : {}), ...(id ? { id } : {}), ...(publicUrl ? { publicUrl } : {}) };
  },
  survey: none,
  audience: (p) => {
    const since = p.since;
    if (typeof since !== 'number' || !Number.isFinite(since) || since < 0) {
      throw new UsageError('bad-since', `since must be a time in epoch milliseconds (got ${JSON.stringify(since)}).`, { since });
    }
    return { since };
  },

  'backlog.add': (p) => ({ project: text(p, 'project', 'the project (--project)'), id: text(p, 'id', 'the item id'), title: text(p, 'title', 'a title'), brief: opt(p, 'brief') }),
  'backlog.list': (p) => ({ state: opt(p, 'state') }),
  'backlog.ready': none,
  'backlog.show': itemId,
  'backlog.start': itemId,
  'backlog.hold': (p) => {
    const id = text(p, 'id', 'the item id');
    const reason = text(p, 'reason', 'a reason (--reason)');
    const kind = text(p, 'kind', 'a kind (--kind)');
    if (!isOneOf(HOLD_KINDS, kind)) throw badHoldKind(kind);
    return { id, reason, kind };
  },
  'backlog.unhold': itemId,
  'backlog.block': (p) => ({ id: text(p, 'id', 'the item id'), by: text(p, 'by', 'the blocker (--by)') }),
  'backlog.done': (p) => ({ id: text(p, 'id', 'the item id'), pr: opt(p, 'pr'), note: opt(p, 'note') }),
  'backlog.reopen': itemId,
  'backlog.drop': itemId,
  decisions: (p) => ({ all: flag(p, 'all') }),
  // The answer is typed into the worker: it is checked as send's text is, before it is accepted
  // (one with a control character was recorded, could never be delivered and never answered again).
  decide: (p) => {
    const key = text(p, 'key', 'the decision key');
    const answer = opt(p, 'answer');
    return { key, answer: answer === undefined ? undefined : checkSendableText(answer, 'the worker'), declined: opt(p, 'declined') };
  },
  'afk.on': (p) => ({ note: opt(p, 'note') }),
  'afk.off': none,
  'afk.digest': none,
  'afk.status': none,
  journal: (p) => {
    if (typeof p.since === 'string' && p.since) {
      if (!Number.isFinite(Date.parse(p.since))) throw new UsageError('bad-since', `--since ${JSON.stringify(p.since)} is not a date; use an ISO time such as 2026-12-01T08:00:00Z.`);
      return { since: p.since };
    }
    return typeof p.sinceMs === 'number' ? { sinceMs: p.sinceMs } : {};
  },
  'notify.add': (p) => ({ kind: text(p, 'kind', 'a target kind'), args: stringList(p.args) ?? [], allowLoopback: flag(p, 'allowLoopback') }),
  'notify.list': none,
  'notify.remove': (p) => ({ id: text(p, 'id', 'the target id') }),
  'notify.test': (p) => ({ id: opt(p, 'id') }),
  'notify.log': none,
  usage: none,
  'usage.source': (p) => ({ clear: flag(p, 'clear'), argv: stringList(p.argv) ?? [] }),
  'work.summary': none,
  'host.add': (p) => {
    const name = hostName(p);
    const destination = text(p, 'destination', 'where the host is (user@address)');
    const at = destination.lastIndexOf('@');
    const user = destination.slice(0, at);
    const address = destination.slice(at + 1);
    if (at <= 0 || !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(user) || !/^[A-Za-z0-9][A-Za-z0-9.:-]*$/.test(address)) {
      throw new UsageError('bad-destination', `${JSON.stringify(destination)} is not user@address; write it as alice@build-box or alice@10.0.0.5`, { key: 'destination' });
    }
    const port = p.port === undefined || p.port === null ? undefined : Number(p.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
      throw new UsageError('bad-port', `--port ${JSON.stringify(p.port)} is not a port (1..65535)`, { key: 'port' });
    }
    const absolute = (key: 'identity' | 'knownHosts', flagName: string) => {
      const v = opt(p, key);
      if (v !== undefined && !v.startsWith('/')) throw new UsageError('bad-request', `${flagName} ${JSON.stringify(v)} must be an absolute path`, { key });
      return v;
    };
    const identity = absolute('identity', '--identity');
    const knownHosts = absolute('knownHosts', '--known-hosts');
    return { name, destination, ...(port !== undefined && { port }), ...(identity && { identity }), ...(knownHosts && { knownHosts }) };
  },
  'host.list': none,
  'host.check': (p) => ({ name: text(p, 'name', 'the host name') }),
  'host.trust': (p) => {
    const knownHosts = text(p, 'knownHosts', 'a known_hosts file holding the host\'s new key (--known-hosts)');
    if (!knownHosts.startsWith('/')) throw new UsageError('bad-request', `--known-hosts ${JSON.stringify(knownHosts)} must be an absolute path`, { key: 'knownHosts' });
    return { name: text(p, 'name', 'the host name'), knownHosts };
  },
  'host.remove': (p) => ({ name: text(p, 'name', 'the host name') }),
  'project.host': (p) => {
    const path = text(p, 'path', 'the checkout path on that host');
    if (!path.startsWith('/')) throw new UsageError('bad-path', `the path on the host must be absolute, got ${JSON.stringify(path)}`, { key: 'path' });
    return { name: text(p, 'name', 'the project name'), host: text(p, 'host', 'the host name'), path, default: flag(p, 'default') };
  },
  calibrate: (p) => {
    const agent = p.agent === EVERY_AGENT ? EVERY_AGENT : agentParam(p);
    const backend = str(p, 'backend', false) || undefined;
    if (backend !== undefined && backend !== 'tmux' && backend !== 'pty') {
      throw new UsageError('bad-backend', `--backend ${JSON.stringify(backend)}: a calibration runs its agents in tmux or pty (the hosts that run on this machine)`, { backend });
    }
    return { ...(agent && { agent }), ...(backend && { backend }), ...(flag(p, 'auto') ? { auto: true } : {}) };
  },
  annotate: (p) => ({ id: idParam(p), item: annotationItem(p), text: annotationText(p), via: p.via === 'page' ? 'page' : 'cli' }),
  annotations: (p) => {
    const id = str(p, 'id', false) || undefined;
    const sinceMs = p.sinceMs === undefined || p.sinceMs === null ? undefined : p.sinceMs;
    if (sinceMs !== undefined && (typeof sinceMs !== 'number' || !Number.isFinite(sinceMs) || sinceMs < 0)) {
      throw new UsageError('bad-since', `since must be a time in epoch milliseconds (got ${JSON.stringify(sinceMs)}); the CLI takes --since 2h or an ISO time.`, { key: 'sinceMs' });
    }
    return { ...(id && { id }), ...(sinceMs !== undefined && { sinceMs }), ...(flag(p, 'all') ? { all: true } : {}) };
  },
  'annotations.take': (p) => {
    const raw = Array.isArray(p.n) ? p.n : [p.n];
    const n = raw.map((v) => (typeof v === 'string' && /^\d{1,12}$/.test(v.trim()) ? Number(v) : v));
    if (n.length === 0 || n.length > 200 || !n.every((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0)) {
      throw new UsageError('bad-annotation-number', `take names annotations by their numbers (hand annotations lists them), e.g. hand annotations take 3 4 --as steer; got ${JSON.stringify(p.n)}.`, { key: 'n' });
    }
    const as = text(p, 'as', 'how it was taken (--as revised-brief|steer|answered)');
    if (!isOneOf(TAKEN_AS, as)) throw new UsageError('bad-taken-as', `--as ${JSON.stringify(as)}: an annotation is taken as ${TAKEN_AS.join(', ')}.`, { key: 'as' });
    return { n: [...new Set(n)], as, ...(opt(p, 'note') !== undefined && { note: opt(p, 'note')!.slice(0, 500) }) };
  },
};

/** An item id as the review shows it (R-001, F-002, C-003, Q-004) or `general`. */
function annotationItem(p: Raw): string {
  const item = typeof p.item === 'string' ? p.item.trim() : '';
  if (!ITEM_ID.test(item)) {
    throw new UsageError('bad-item', `${JSON.stringify(typeof p.item === 'string' ? p.item.slice(0, 40) : p.item)} is not an item of a review: an id as the page shows it (R-001 a requirement, F-001 a file, C-001 a browser check, Q-001 a question) or ${GENERAL_ITEM}.`, { key: 'item' });
  }
  return item;
}

/**
 * The person's words: they travel on into a revised brief and, as a steer, into a worker's box,
 * so they are held to what hand send types (no control character but newline and tab, nothing
 * invisible) and to ANNOTATION_MAX_CHARS. A page's CRLF is one newline.
 */
function annotationText(p: Raw): string {
  const raw = typeof p.text === 'string' ? p.text.replace(/\r\n?/g, '\n') : '';
  if (raw.trim() === '') throw new UsageError('empty-annotation', 'an annotation needs words: what should change, in your own words.', { key: 'text' });
  if (raw.length > ANNOTATION_MAX_CHARS) {
    throw new UsageError('annotation-too-long', `an annotation holds at most ${ANNOTATION_MAX_CHARS} characters (this one has ${raw.length}); nothing was written. Say it shorter, or put the rest in the brief.`, { key: 'text', max: ANNOTATION_MAX_CHARS, length: raw.length });
  }
  // eslint-disable-next-line no-control-regex
  const bad = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(raw);
  if (bad) {
    const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new UsageError('control-in-annotation', `an annotation is words, and this one holds the control character ${code} at position ${bad.index}; nothing was written. Write it without one.`, { key: 'text', char: code, position: bad.index });
  }
  refuseInvisible(raw, 'the annotation');
  return raw.trim();
}

/** A host's name: short, lower-case, a word a command line and a status column can carry. */
function hostName(p: Raw): string {
  const name = text(p, 'name', 'the host name');
  if (isPrototypeName(name)) throw new UsageError('bad-host-name', `${prototypeNameWhy('host name', name)}.`, { key: 'name' });
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(name)) {
    throw new UsageError('bad-host-name', `host name ${JSON.stringify(name)} must be 1-40 lower-case letters, digits or dashes, starting with a letter or digit`, { key: 'name' });
  }
  return name;
}
