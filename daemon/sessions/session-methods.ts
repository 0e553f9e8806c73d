/**
 * A worker's own conversation and what it spent (issue 41): `resume` and `cost`, each with its
 * edge parser and its handler (method-entry.ts; the bodies are in session-handlers.ts, which puts
 * each worker in its own lane: one at a time, none typed into by two callers).
 */
import { UsageError } from '../../contract/errors.ts';
import type { FamilyTable } from '../method-entry.ts';
import { flag, positiveParam, stringsParam } from '../params.ts';

const idList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : typeof v === 'string' && v !== '' ? [v] : undefined);

export const SESSION_METHODS: FamilyTable<'sessions'> = {
  resume: {
    parse: (p) => {
      const ids = idList(p.ids);
      const allLost = flag(p, 'allLost');
      if (!allLost && !ids?.length) throw new UsageError('bad-request', 'which workers? hand resume <id>…, or hand resume --all-lost.', { key: 'ids' });
      if (allLost && ids?.length) throw new UsageError('bad-request', 'name workers or pass --all-lost, not both.', { key: 'ids' });
      return { ...(ids?.length && { ids }), ...(allLost && { allLost: true }), env: stringsParam(p.env), envAdd: stringsParam(p.envAdd) };
    },
    handle: ({ sessions }) => (p, ctx) => sessions.resume(p, ctx),
  },
  cost: {
    parse: (p) => {
      const days = p.days === undefined ? undefined : positiveParam(p, 'days', 0);
      if (days !== undefined && (!Number.isInteger(days) || days > 366)) throw new UsageError('bad-request', '--days takes a whole number of days from 1 to 366.', { key: 'days' });
      return { ...(days !== undefined && { days }) };
    },
    handle: ({ sessions }) => (p, ctx) => sessions.cost(p, ctx),
  },
};
