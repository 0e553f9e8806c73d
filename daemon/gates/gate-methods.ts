/**
 * The gates and what follows a worker's turn (land, approve, reject, landings, discard, close,
 * relaunch), the review page's URL and the Hand's read-only views (survey, audience), each with
 * its edge parser, its handler and the rules that cut across it, side by side (method-entry.ts;
 * the handlers' bodies are in landing.ts, discard-handlers.ts, close-handler.ts,
 * relaunch-handlers.ts and fleet-picture.ts beside this file).
 */
import { UsageError } from '../../contract/errors.ts';
import type { DiscardParams, DiscardedWorker } from '../../contract/methods.ts';
import { closeWorker } from './close-handler.ts';
import { none, type FamilyTable } from '../method-entry.ts';
import { flag, idParam, optText, positiveParam, str, stringsParam, text } from '../params.ts';

export const GATE_METHODS: FamilyTable<'gates'> = {
  // The word on agent settings is a literal true, never a truthy string (docs/2026-12-06-…).
  land: {
    parse: (p) => ({ id: idParam(p), path: optText(p, 'path'), ...(p.acceptAgentSettings === true ? { acceptAgentSettings: true } : {}), ...(p.rebase === true ? { rebase: true } : {}) }),
    handle: ({ landing, rules }) => async (p, ctx) => {
      rules.refuseIfParked(p.id, 'landed');
      try {
        return await landing.land(p, ctx);
      } catch (err) {
        // Review-gate findings become decisions the person answers (gate-findings-decisions.ts).
        throw rules.findingsAsDecisions(p.id, err);
      }
    },
  },
  approve: {
    parse: (p) => ({ id: idParam(p), path: optText(p, 'path'), ...(p.acceptAgentSettings === true ? { acceptAgentSettings: true } : {}) }),
    handle: ({ landing, rules }) => async (p, ctx) => {
      rules.refuseIfParked(p.id, 'landed');
      return landing.approve(p, ctx);
    },
  },
  reject: {
    parse: (p) => {
      const id = idParam(p);
      const reason = typeof p.reason === 'string' ? p.reason.trim() : '';
      if (!reason) throw new UsageError('reason-required', `a rejection needs a reason the worker can act on: hand reject ${id} --reason "<why>".`, { id });
      return { id, reason };
    },
    handle: ({ landing, rules }) => async (p) => {
      const r = await landing.reject(p);
      // Only the brief gate ends the worker; a landing rejected goes back to the worker to fix.
      const item = r.stage === 'rejected' ? rules.requeueItemOf(p.id, 'brief-rejected') : null;
      return item ? { ...r, item } : r;
    },
  },
  landings: { parse: none, handle: (w) => w.landing.landings },
  discard: {
    parse: (p) => ({
      id: typeof p.id === 'string' && p.id !== '' ? p.id : undefined,
      allFinished: flag(p, 'allFinished'), deleteBranch: flag(p, 'deleteBranch'), discardCommits: flag(p, 'discardCommits'), forget: flag(p, 'forget'),
    }),
    handle: ({ discard, rules }) => async (p) => {
      // Each discarded worker gives its backlog item back to the queue.
      const discardOne = async (q: DiscardParams): Promise<DiscardedWorker> => {
        const r = await discard.discard(q);
        // What it spent stays its project's, no longer the id's (a next worker of the id starts at zero).
        rules.workBegan(r.id);
        const item = rules.requeueItemOf(r.id, 'worker-discarded');
        return item ? { ...r, item } : r;
      };
      if (p.allFinished === true) return rules.discardAllButParked(discardOne, p);
      rules.refuseIfParked(p.id ?? '', 'discarded');
      return discardOne(p);
    },
  },
  // A read-only worker's close-out (counsel): stopped in its lane, then discarded, its item done.
  close: {
    parse: (p) => ({ id: text(p, 'id', 'the worker id'), ...(flag(p, 'force') ? { force: true } : {}) }),
    handle: ({ core, discard, workers, rules, inLane }) => async (p, ctx) => {
      rules.refuseIfParked(p.id, 'closed');
      return closeWorker(p, ctx, {
        store: workers.store, fleet: workers.fleet,
        stop: (q, c) => inLane(q.id, () => core.stop(q, c)),
        discard: (q) => discard.discard(q),
        itemDoneBy: (w, note) => rules.itemDoneBy(w, note),
      });
    },
  },
  relaunch: {
    parse: (p) => {
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
    handle: ({ relaunch, rules, inLane }) => async (p, ctx) => {
      // A resume continues the conversation that asked: a parked worker comes back parked on the same question.
      if (p.resume !== true) rules.refuseIfParked(p.id, 'relaunched', 'answering it relaunches it when its session is gone');
      return inLane(p.id, () => relaunch.relaunch(p, ctx));
    },
  },
  review: {
    parse: (p) => {
      const id = str(p, 'id', false);
      const publicUrl = str(p, 'publicUrl', false);
      return { ...(p.login === true ? { login: true } : {}), ...(p.signOutAll === true ? { signOutAll: true } : {}), ...(id ? { id } : {}), ...(publicUrl ? { publicUrl } : {}) };
    },
    handle: (w) => w.review.review,
  },
  survey: { parse: none, handle: (w) => w.picture.survey },
  audience: {
    parse: (p) => {
      const since = p.since;
      if (typeof since !== 'number' || !Number.isFinite(since) || since < 0) {
        throw new UsageError('bad-since', `since must be a time in epoch milliseconds (got ${JSON.stringify(since)}).`, { since });
      }
      return { since };
    },
    handle: (w) => w.picture.audience,
  },
};
