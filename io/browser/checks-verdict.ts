/**
 * The verdict on a worker's browser checks (issue 40), as the landing evidence carries it:
 * `verified — 3 checks: 3 verified`. Each check of the brief (the daemon's copy: what the person
 * approved) is judged from the worker's record, which is a stranger's file: a claim is never taken
 * at its word. A check is verified only when its recorded observation shows every expected text
 * (and none it must not); a check with no record, a bare claim, an unreadable record, or a check
 * that clicked or typed where the brief only lets it read is `not checked`, with why. Pure.
 */
import type { BrowserChecksVerdict, CheckResult, JudgedCheck } from '../../contract/browser-checks.ts';
import type { BrowserCheckItem } from '../brief/brief-items.ts';
import { CHECKS_KIND, fold, outcomeOf, type Observation } from './checks-record.ts';
import { quoteWorker } from '../../contract/worker-words.ts';

/** The record as read: its text, nothing there, or why it was not read. */
export type RecordRead = { kind: 'read'; text: string; truncated?: boolean } | { kind: 'absent' } | { kind: 'refused'; why: string };

const SAID_MAX = 300;
const cut = (s: string, max = SAID_MAX) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);

/** An observation with every field the judge reads, or null (a claim without one). */
function observationOf(v: unknown): Observation | null {
  if (!isObject(v)) return null;
  const expect = strings(v.expect);
  const expectNot = strings(v.expectNot) ?? [];
  const actions = strings(v.actions) ?? [];
  if (typeof v.url !== 'string' || typeof v.text !== 'string' || !expect) return null;
  return {
    url: v.url,
    finalUrl: typeof v.finalUrl === 'string' ? v.finalUrl : v.url,
    status: typeof v.status === 'number' ? v.status : null,
    title: typeof v.title === 'string' ? v.title : '',
    selector: typeof v.selector === 'string' ? v.selector : null,
    text: v.text,
    expect,
    expectNot,
    actions,
    browser: typeof v.browser === 'string' ? v.browser : '',
    loadError: typeof v.loadError === 'string' ? v.loadError : null,
  };
}

function observedWords(o: Observation, why: string): string {
  const where = `${o.selector ? `${o.selector} at ` : ''}${o.finalUrl}${o.status !== null ? ` (${o.status})` : ''}`;
  return cut(`${why} in ${where}${o.browser ? ` · ${o.browser}` : ''}; page text: ${JSON.stringify(cut(fold(o.text), 120))}`);
}

/**
 * One check judged. Everything in the record is the worker's (the tool ran in its sandbox, and the
 * worker can write the file itself): what it says is quoted as the worker's words after the
 * daemon's own, so no face carries it bare.
 */
function judgeOne(check: BrowserCheckItem, entry: unknown, worker: string): Omit<JudgedCheck, 'id' | 'text'> {
  const theirs = (words: string) => quoteWorker(worker, words);
  if (!isObject(entry)) return { result: 'not checked', said: 'no record: the check was not run with hand browser-check' };
  const claimed = entry.result;
  const reason = typeof entry.reason === 'string' ? cut(fold(entry.reason)) : '';
  if (claimed === 'not checked') return { result: 'not checked', said: `its record says why: ${theirs(reason || '(no reason given)')}` };
  const o = observationOf(entry.observed);
  if (!o) {
    if (claimed === 'failed') return { result: 'failed', said: `failed with no observation recorded${reason ? `: ${theirs(reason)}` : ''}` };
    return { result: 'not checked', said: `claimed ${theirs(String(claimed).slice(0, 40))} without a recorded observation: not verified` };
  }
  if (o.actions.length && !check.interact) {
    return { result: 'not checked', said: `it clicked or typed (${theirs(o.actions.join(', '))}) though the brief lets ${check.id} only read: not verified` };
  }
  // The observation decides, whatever the entry claims; a check the worker says failed stays failed.
  const judged = outcomeOf(o);
  const result: CheckResult = claimed === 'failed' ? 'failed' : judged.result;
  return { result, said: `observed: ${theirs(observedWords(o, judged.why))}` };
}

function line(verdict: CheckResult, counts: Record<CheckResult, number>, total: number): string {
  const parts = (['verified', 'failed', 'not checked'] as const).filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  return `${verdict} — ${total} check${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** The verdict on `checks` from the record, or null when the brief asks for none. */
export function judgeBrowserChecks(checks: readonly BrowserCheckItem[], record: RecordRead, place: { worker: string; farHost?: string }): BrowserChecksVerdict | null {
  if (checks.length === 0) return null;
  let entries: Record<string, unknown> = {};
  let whole: string | null = null;
  if (place.farHost) whole = `the worker runs on ${place.farHost}: its checks record is not read from there`;
  else if (record.kind === 'absent') whole = 'no record: no check was run with hand browser-check';
  else if (record.kind === 'refused') whole = `its checks record was refused: ${cut(record.why)}`; // the daemon's own words for why
  else if (record.truncated) whole = 'its checks record is larger than the daemon reads: not read';
  else {
    try {
      const v: unknown = JSON.parse(record.text);
      if (!isObject(v) || v.kind !== CHECKS_KIND || !isObject(v.checks)) whole = 'its checks record is not one hand browser-check wrote';
      else entries = v.checks;
    } catch {
      whole = 'its checks record is not JSON';
    }
  }
  const judged: JudgedCheck[] = checks.map((c) => ({
    id: c.id,
    text: c.text,
    ...(whole ? { result: 'not checked' as const, said: whole } : judgeOne(c, Object.hasOwn(entries, c.id) ? entries[c.id] : undefined, place.worker)),
  }));
  const counts: Record<CheckResult, number> = { verified: 0, failed: 0, 'not checked': 0 };
  for (const j of judged) counts[j.result] += 1;
  const verdict: CheckResult = counts.failed > 0 ? 'failed' : counts['not checked'] > 0 ? 'not checked' : 'verified';
  return { verdict, line: line(verdict, counts, judged.length), counts, checks: judged };
}
