/**
 * What `hand survey` adds from the durable work (issue 22): the queue — items ready to dispatch,
 * held ones with what they wait for (held for the person is the person's to release), blocked
 * ones with their blockers — open decisions no parked worker already shows, and away mode.
 * "Nothing is queued" beside three backlog items was the survey reading workers only.
 */
import type { WorkStores } from '../../persistence/work/index.ts';
import type { AwayBrief, SurveyItem } from '../../contract/methods.ts';

export interface SurveyQueue {
  needsYou: SurveyItem[];
  next: SurveyItem[];
  away: AwayBrief;
}

export function surveyQueue(stores: WorkStores, parkedWorkers: ReadonlySet<string>): SurveyQueue {
  const needsYou: SurveyItem[] = [];
  const next: SurveyItem[] = [];
  for (const i of stores.backlog.list()) {
    // A hold on an item in flight ("park it") is the person's word too: shown beside its worker.
    if (i.state === 'in-flight' && i.hold) {
      const to = i.hold.kind === 'person' ? needsYou : next;
      to.push({ id: i.id, kind: i.hold.kind === 'person' ? 'held-for-you' : 'held', text: `item ${i.id} held (${i.hold.kind}) while in flight${i.worker ? ` (worker ${i.worker})` : ''}: ${i.hold.reason} — ${i.title}; release it with hand backlog unhold ${i.id}` });
      continue;
    }
    if (i.state !== 'queued') continue;
    if (i.hold) {
      const to = i.hold.kind === 'person' ? needsYou : next;
      to.push({ id: i.id, kind: i.hold.kind === 'person' ? 'held-for-you' : 'held', text: `item ${i.id} held (${i.hold.kind}): ${i.hold.reason} — ${i.title}; release it with hand backlog unhold ${i.id}` });
    } else if (i.waitingOn.length) {
      next.push({ id: i.id, kind: 'blocked-item', text: `item ${i.id} waits for ${i.waitingOn.join(', ')} — ${i.title}` });
    } else {
      next.push({ id: i.id, kind: 'ready', text: `item ${i.id} is ready: ${i.title} → hand dispatch --item ${i.id}` });
    }
  }
  for (const d of stores.decisions.open()) {
    if (parkedWorkers.has(d.worker)) continue;
    needsYou.push({ id: d.key, kind: 'decision', text: `decision ${d.key} (${d.worker}) is open → hand decide ${d.key} "<answer>"` });
  }
  const a = stores.away.state();
  return { needsYou, next, away: { active: a.active, since: a.since ? new Date(a.since).toISOString() : null, note: a.note } };
}
