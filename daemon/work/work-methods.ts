/**
 * The work that outlives a conversation (issue 13): the backlog, held decisions, away mode and
 * its journal, notification targets and the usage pulse, each with its edge parser and its
 * handler (method-entry.ts; the bodies are in work-handlers.ts beside this file).
 */
import { UsageError } from '../../contract/errors.ts';
import { HOLD_KINDS, isOneOf } from '../../contract/vocabulary.ts';
import { badHoldKind } from '../../contract/refusals.ts';
import type { WireObject } from '../../contract/protocol.ts';
import { checkSendableText } from '../../io/text/sendable-text.ts';
import { none, type FamilyTable } from '../method-entry.ts';
import { flag, opt, stringList, text } from '../params.ts';

const itemId = (p: WireObject) => ({ id: text(p, 'id', 'the item id') });

export const WORK_METHODS: FamilyTable<'work'> = {
  'backlog.add': {
    parse: (p) => ({ project: text(p, 'project', 'the project (--project)'), id: text(p, 'id', 'the item id'), title: text(p, 'title', 'a title'), brief: opt(p, 'brief') }),
    handle: (w) => w.work['backlog.add'],
  },
  'backlog.list': { parse: (p) => ({ state: opt(p, 'state') }), handle: (w) => w.work['backlog.list'] },
  'backlog.ready': { parse: none, handle: (w) => w.work['backlog.ready'] },
  'backlog.show': { parse: itemId, handle: (w) => w.work['backlog.show'] },
  'backlog.start': { parse: itemId, handle: (w) => w.work['backlog.start'] },
  'backlog.hold': {
    parse: (p) => {
      const id = text(p, 'id', 'the item id');
      const reason = text(p, 'reason', 'a reason (--reason)');
      const kind = text(p, 'kind', 'a kind (--kind)');
      if (!isOneOf(HOLD_KINDS, kind)) throw badHoldKind(kind);
      return { id, reason, kind };
    },
    handle: (w) => w.work['backlog.hold'],
  },
  'backlog.unhold': { parse: itemId, handle: (w) => w.work['backlog.unhold'] },
  'backlog.block': { parse: (p) => ({ id: text(p, 'id', 'the item id'), by: text(p, 'by', 'the blocker (--by)') }), handle: (w) => w.work['backlog.block'] },
  'backlog.done': { parse: (p) => ({ id: text(p, 'id', 'the item id'), pr: opt(p, 'pr'), note: opt(p, 'note') }), handle: (w) => w.work['backlog.done'] },
  'backlog.reopen': { parse: itemId, handle: (w) => w.work['backlog.reopen'] },
  'backlog.drop': { parse: itemId, handle: (w) => w.work['backlog.drop'] },
  decisions: { parse: (p) => ({ all: flag(p, 'all') }), handle: (w) => w.work.decisions },
  decide: {
    // The answer is typed into the worker: it is checked as send's text is, before it is accepted
    // (one with a control character was recorded, could never be delivered and never answered again).
    parse: (p) => {
      const key = text(p, 'key', 'the decision key');
      const answer = opt(p, 'answer');
      return { key, answer: answer === undefined ? undefined : checkSendableText(answer, 'the worker'), declined: opt(p, 'declined') };
    },
    handle: (w) => w.work.decide,
  },
  'afk.on': { parse: (p) => ({ note: opt(p, 'note') }), handle: (w) => w.work['afk.on'] },
  'afk.off': { parse: none, handle: (w) => w.work['afk.off'] },
  'afk.digest': { parse: none, handle: (w) => w.work['afk.digest'] },
  'afk.status': { parse: none, handle: (w) => w.work['afk.status'] },
  journal: {
    parse: (p) => {
      if (typeof p.since === 'string' && p.since) {
        if (!Number.isFinite(Date.parse(p.since))) throw new UsageError('bad-since', `--since ${JSON.stringify(p.since)} is not a date; use an ISO time such as 2026-12-01T08:00:00Z.`);
        return { since: p.since };
      }
      return typeof p.sinceMs === 'number' ? { sinceMs: p.sinceMs } : {};
    },
    handle: (w) => w.work.journal,
  },
  'notify.add': {
    parse: (p) => ({ kind: text(p, 'kind', 'a target kind'), args: stringList(p.args) ?? [], allowLoopback: flag(p, 'allowLoopback') }),
    handle: (w) => w.work['notify.add'],
  },
  'notify.list': { parse: none, handle: (w) => w.work['notify.list'] },
  'notify.remove': { parse: (p) => ({ id: text(p, 'id', 'the target id') }), handle: (w) => w.work['notify.remove'] },
  'notify.test': { parse: (p) => ({ id: opt(p, 'id') }), handle: (w) => w.work['notify.test'] },
  'notify.log': { parse: none, handle: (w) => w.work['notify.log'] },
  usage: { parse: none, handle: (w) => w.work.usage },
  'usage.source': { parse: (p) => ({ clear: flag(p, 'clear'), argv: stringList(p.argv) ?? [] }), handle: (w) => w.work['usage.source'] },
  'work.summary': { parse: none, handle: (w) => w.work['work.summary'] },
};
