/**
 * The daemon's phone links (issue 42): the public URL the person's tunnel answers on, and the
 * capabilities a notification's actions carry. Made once per daemon run and shared by the
 * notifying side (work-watch.ts mints) and the review page (phone-route.ts redeems), so both
 * see one key, one run id and one set of spent capabilities.
 *
 * Single use is kept in memory, as the page's login codes are: a capability names the run that
 * made it, and a later run refuses it (docs/2026-12-06-answers-from-the-phone.md),
 * so no spent list has to outlive the process for a replay to stay refused.
 */
import { randomBytes } from 'node:crypto';
import type { WorkerViewLike } from '../fleet-api.ts';
import { readPublicUrl, writePublicUrl, type PublicUrl } from './public-url.ts';
import { capabilityTtlMs, loadOrCreateCapabilityKey, newNonce, openCapability, signCapability, type CapabilityKind, type CapabilityPayload } from './capability.ts';
import { CapabilityRefusal } from './capability-refusal.ts';

/** At most this many answers ride in one notification (ntfy shows three buttons: see senders.ts). */
export const MAX_ANSWER_ACTIONS = 4;
export interface PhoneAction {
  kind: CapabilityKind;
  label: string;
  url: string;
  /** POST for an answer (a GET is never a state change: link previews fetch links); GET for view. */
  method: 'POST' | 'GET';
}

/** A button's label: the option's first words, at most this many characters. */
const LABEL_CHARS = 40;
const buttonLabel = (s: string) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

export interface PhoneLinks {
  publicUrl(): PublicUrl | null;
  setPublicUrl(url: PublicUrl | null): void;
  /** The answer actions for a dialog on `v`'s screen, or a parked decision's options, and its view link; null without a public URL. */
  actionsFor(v: WorkerViewLike, decision?: { key: string; options: string[] } | null): { actions: PhoneAction[]; view: string } | null;
  /**
   * Checks a capability used on `worker`'s address, in the order that tells nothing to a forger:
   * ours (the mac), this run, unexpired, this worker, unspent, its notification not answered by
   * another. Throws a CapabilityRefusal; nothing is spent by a refusal.
   */
  check(worker: string, cap: string): CapabilityPayload;
  /** Spends it, and for an answer every other answer of the same notification: call in the same tick as check. */
  spend(p: CapabilityPayload, label: string): void;
  readonly runId: string;
  readonly startedAt: number;
}

/** A notification's answers are one group (a dialog shown twice is two questions, two groups); a view link is its own. */
export function groupOf(p: Pick<CapabilityPayload, 'k' | 'g' | 'n'>): string {
  return p.k === 'view' ? `view:${p.n}` : `answers:${p.g}`;
}

export function createPhoneLinks(o: { home: string; env: Record<string, string | undefined>; now?: () => number }): PhoneLinks {
  const now = o.now ?? Date.now;
  const key = loadOrCreateCapabilityKey(o.home);
  const runId = randomBytes(8).toString('base64url');
  const startedAt = now();
  const ttl = capabilityTtlMs(o.env);
  let pub = readPublicUrl(o.home);
  /** Spent nonces and answered notifications, each until its capability would have expired anyway. */
  const spent = new Map<string, { until: number; at: number }>();
  const answered = new Map<string, { until: number; at: number; label: string }>();
  const sweep = () => {
    const t = now();
    for (const [k, v] of spent) if (v.until <= t) spent.delete(k);
    for (const [k, v] of answered) if (v.until <= t) answered.delete(k);
  };

  const link = (p: Omit<CapabilityPayload, 'v' | 'e' | 'n' | 'r'>) => {
    const cap = signCapability(key, { v: 1, ...p, e: now() + ttl, n: newNonce(), r: runId });
    return `${pub!.base}/phone/${encodeURIComponent(p.w)}/${cap}`;
  };

  return {
    runId,
    startedAt,
    publicUrl: () => pub,
    setPublicUrl(url) {
      writePublicUrl(o.home, url);
      pub = url;
    },
    actionsFor(v, decision) {
      if (!pub) return null;
      const actions: PhoneAction[] = [];
      const g = newNonce();
      if (v.dialog && v.dialog.options.length > 0) {
        // A free-text option needs the person's words: the page (view) has the field for them.
        for (const opt of v.dialog.options.filter((x) => !x.freeText).slice(0, MAX_ANSWER_ACTIONS)) {
          actions.push({ kind: 'answer', label: buttonLabel(`${opt.n}. ${opt.label}`), url: link({ k: 'answer', w: v.id, b: v.dialog.fingerprint, o: opt.n, g }), method: 'POST' });
        }
      } else if (decision && decision.options.length > 0) {
        decision.options.slice(0, MAX_ANSWER_ACTIONS).forEach((text, i) => {
          actions.push({ kind: 'decide', label: buttonLabel(text), url: link({ k: 'decide', w: v.id, b: decision.key, o: i, g }), method: 'POST' });
        });
      }
      return { actions, view: link({ k: 'view', w: v.id, b: '', o: 0, g }) };
    },
    check(worker, cap) {
      sweep();
      const p = openCapability(key, cap);
      if (!p) throw new CapabilityRefusal('capability-forged', 403, 'this link is not one kingshand made (forged, or cut short when it was copied)');
      const refuse = (code: string, status: number, why: string): never => {
        const r = new CapabilityRefusal(code, status, why);
        r.payload = p;
        throw r;
      };
      if (p.r !== runId) refuse('capability-from-an-earlier-run', 410, `this link was made before the daemon restarted (${new Date(startedAt).toISOString()}); links in notifications end with the daemon that sent them`);
      if (p.e <= now()) refuse('capability-expired', 410, `this link expired at ${new Date(p.e).toISOString()}`);
      if (p.w !== worker) refuse('capability-for-another-worker', 403, `this link is for worker ${p.w}, not ${worker}`);
      const used = spent.get(p.n);
      if (used) refuse('capability-used', 409, `this link was used already, at ${new Date(used.at).toISOString()}; each is good once`);
      const first = p.k === 'view' ? undefined : answered.get(groupOf(p));
      if (first) refuse('capability-answered', 409, `another answer from the same notification was used first (${first.label}, at ${new Date(first.at).toISOString()})`);
      return p;
    },
    spend(p, label) {
      const at = now();
      spent.set(p.n, { until: p.e, at });
      if (p.k !== 'view') answered.set(groupOf(p), { until: p.e, at, label });
    },
  };
}
