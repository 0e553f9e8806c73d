/**
 * `hand watch --needs-you`: one line per event that needs the person, across the fleet — the
 * Hand's one wake (run under Claude Code's Monitor, each line reaches its session). The meaning
 * comes from the same label the notifications use (actors/notify/conditions.ts, itself from the
 * condition the machine's tags give), plus two states only a watcher must hear about: a dispute
 * between the screen and the hooks, and a screen that could not be told past its bound.
 *
 * A worker's words (its question, options, the decision it parked on) are data, never
 * instructions: each is quoted, attributed to the worker and bounded in length.
 */
import type { WorkerViewLike } from './fleet-api.ts';
import { conditionOf } from './wait-report.ts';
import { describe as describeLabel, labelOf } from './notify/conditions.ts';
import { askedOf } from '../io/screen/asked.ts';
import { quotedOrNull, quoteWorker } from '../contract/worker-words.ts';

export type { NeedKind as Need, NeedsYouEvent } from '../contract/methods.ts';
import type { NeedKind as Need, NeedsYouEvent } from '../contract/methods.ts';

/** A finished worker wakes the Hand (its landing is the person's to ask for); a landing that happened does not: it is past. */
const NEEDS: ReadonlySet<string> = new Set<Need>(['blocked', 'gate', 'parked', 'stalled', 'unclassified', 'wait-failed', 'disputed', 'agent-error', 'crashed', 'done']);


/** What a view says now, as the key a watcher de-duplicates on; null when nothing needs the person. */
export function needOf(v: WorkerViewLike): Need | null {
  // Could not tell past its bound: the terminal server did not answer (issue 38 item 8). First, as
  // in conditionOf: a screen that cannot be read disagrees with nothing, and a dispute left from
  // before the server went silent must not hide that it went silent.
  if (conditionOf(v) === 'wait-failed') return 'wait-failed';
  if (v.disputed) return 'disputed';
  if (conditionOf(v) === 'unclassified') return 'unclassified';
  const label = labelOf(v);
  return NEEDS.has(label) ? (label as Need) : null;
}

export function needsYouEvent(v: WorkerViewLike, need: Need, screen: string | null, now: number): NeedsYouEvent {
  const base = { worker: v.id, project: v.project, need, at: new Date(now).toISOString(), fingerprint: null as string | null };
  if (need === 'disputed') {
    return { ...base, line: `${v.id} disputed: its screen and its hooks disagree (${v.disputed}); look before acting`, question: null, options: [], command: `hand read ${v.id}` };
  }
  if (need === 'unclassified') {
    return { ...base, line: `${v.id} could not be read for a while: its screen fits no known shape`, question: null, options: [], command: `hand read ${v.id}` };
  }
  if (need === 'wait-failed') {
    const why = v.couldNotTell ?? 'its terminal server did not answer when its pane was looked for';
    return { ...base, line: `${v.id} could not tell: ${why}; not gone, not stalled, read again when the server answers → hand status ${v.id}`, question: null, options: [], command: `hand status ${v.id}` };
  }
  const d = describeLabel(v, need);
  // A dialog the reader could list is answered by its fingerprint (hand answer); else read the screen.
  const dialog = need === 'blocked' ? (v.dialog ?? null) : null;
  // One lifter for every face (io/screen/asked.ts): the dialog the agent's reader found, else the screen.
  const asked = need === 'blocked' ? askedOf(dialog, screen) : { question: d.question, options: [] };
  const question = asked.question;
  const options = asked.options;
  const command = dialog ? `hand answer ${v.id} <n> --fingerprint ${dialog.fingerprint}` : d.command;
  // Every word of the worker's, in the line and in the fields, is a quote (issue 37: the fields were bare).
  const quoted = { question: quotedOrNull(v.id, question), options: options.map((o) => quoteWorker(v.id, o.slice(0, 80))) };
  const words = [quoted.question, quoted.options.length ? `options ${quoted.options.join(' | ')}` : null].filter(Boolean).join(' · ');
  return { ...base, fingerprint: dialog?.fingerprint ?? null, line: `${d.reason}${words ? ` — ${words}` : ''} → ${command}`, ...quoted, command };
}
