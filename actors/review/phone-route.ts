/**
 * The review page's door for a notification's actions (issue 42 item 2): `/phone/<worker>/<cap>`.
 * The capability is the whole authority — no session, no cookie, never the standing token — so
 * it is checked in full (phone-links.ts) and spent in the same tick, before anything is awaited:
 * two phones tapping at once cannot both pass (exactly one answer is typed). An answer goes
 * through the daemon's own `answer` handler, the one `hand answer` reaches (keys one per call,
 * the screen read back); a decision's option through `decide`; a view link opens one session on
 * the worker's page. Every use and every refusal of a genuine capability is journaled on the
 * worker with where it came from.
 *
 * A GET never answers anything (link previews and prefetchers fetch links): for an answer it
 * shows what the link would do and a button that posts it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FleetHostApi } from '../fleet-api.ts';
import type { ServedMethods, WireObject } from '../../contract/protocol.ts';
import { toWireError } from '../../contract/protocol.ts';
import { HandError } from '../../contract/errors.ts';
import type { JournalEntry } from '../../persistence/types.ts';
import type { PhoneLinks } from '../phone/phone-links.ts';
import { CapabilityRefusal } from '../phone/capability-refusal.ts';
import type { CapabilityPayload } from '../phone/capability.ts';
import { createRateLimit } from './rate-limit.ts';
import { send, sendJson, SECURITY_HEADERS, tooMany } from './respond.ts';
import { esc } from './html.ts';

export const PHONE_PREFIX = '/phone/';
/** Refused capabilities, all callers together: a forger's guesses stay slow (the mac makes them hopeless anyway). */
const REFUSED_BUDGET = { burst: 30, perSecond: 1 };

export interface PhoneRouteDeps {
  links: PhoneLinks;
  fleet: Pick<FleetHostApi, 'view'>;
  served: ServedMethods;
  /** Writes one row of the fleet journal (the worker's history on its page). */
  journal(entry: JournalEntry): void;
  /** Opens a page session and answers with the page that moves on to `landing`. */
  signIn(res: ServerResponse, landing: string): void;
  log?: (obj: Record<string, unknown>, msg: string) => void;
}

/** Not tied to the request: an answer begun is finished even if the phone hangs up (it is spent either way). */
const ctx = { progress: () => {}, signal: new AbortController().signal };

const wantsHtml = (req: IncomingMessage) => (req.headers.accept ?? '').includes('text/html');

function answerWith(req: IncomingMessage, res: ServerResponse, status: number, ok: boolean, message: string, body: Record<string, unknown>): void {
  if (!wantsHtml(req)) return sendJson(res, status, body);
  send(res, status, 'text/html; charset=utf-8', page(ok ? 'Done' : 'Refused', `<p class="${ok ? 'ok' : 'bad'}">${esc(message)}</p>`));
}

function page(title: string, inner: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)} · kingshand</title><style>body{font:18px system-ui,sans-serif;margin:1rem;max-width:40rem}button{font-size:1.2rem;min-height:3rem;width:100%;margin:.5rem 0}.bad{color:#b00}.ok{color:#060}</style></head><body><h1>${esc(title)}</h1>${inner}</body></html>`;
}

export function createPhoneRoute(deps: PhoneRouteDeps) {
  const refused = createRateLimit(REFUSED_BUDGET);
  /** `<nonce>:<code>` of the refusals already journaled, each until its capability's expiry. */
  const journaledRefusals = new Map<string, number>();

  /** One journal row on the worker: `from` the stage it was in when the link came (default: now), to the stage now. */
  function record(worker: string, event: Record<string, unknown>, from?: string | null): void {
    const now = deps.fleet.view(worker)?.stage ?? null;
    try {
      deps.journal({ actorId: `worker:${worker}`, event, from: from === undefined ? now : from, to: now, at: Date.now() });
    } catch (err) {
      deps.log?.({ worker, err: String(err) }, 'could not journal a phone action');
    }
  }

  function refuse(req: IncomingMessage, res: ServerResponse, err: unknown, origin: Record<string, unknown>, p: CapabilityPayload | null, worker: string): void {
    refused.take('phone');
    const wire = toWireError(err);
    const status = err instanceof CapabilityRefusal ? err.status : err instanceof HandError ? (err.exitCode === 2 ? 400 : 409) : 500;
    // Only a capability of ours names its worker truthfully; a forgery's path is the forger's word.
    // Once per capability and reason: a leaked link replayed a thousand times is one row, not a thousand.
    if (p && !journaledRefusals.has(`${p.n}:${wire.code}`)) {
      for (const [k, until] of journaledRefusals) if (until <= Date.now()) journaledRefusals.delete(k);
      journaledRefusals.set(`${p.n}:${wire.code}`, p.e);
      record(p.w, { type: 'PHONE_REFUSED', ...origin, action: p.k, code: wire.code });
    }
    deps.log?.({ worker: worker.slice(0, 80), code: wire.code, ...origin }, 'phone link refused');
    answerWith(req, res, status, false, wire.message, { ok: false, error: wire });
  }

  /** Answers a request under PHONE_PREFIX (the Host was checked by the caller). */
  return async function phoneRoute(req: IncomingMessage, res: ServerResponse, path: string, host: string | undefined): Promise<void> {
    const rest = path.slice(PHONE_PREFIX.length);
    const slash = rest.lastIndexOf('/');
    const worker = slash > 0 ? rest.slice(0, slash) : '';
    const cap = slash > 0 ? rest.slice(slash + 1) : '';
    const method = req.method ?? 'GET';
    const origin = { via: 'notification', host: host ?? null, userAgent: (req.headers['user-agent'] ?? '').slice(0, 120) };
    if (!refused.has('phone')) return tooMany(res, refused.retryAfter('phone'), !wantsHtml(req), 'refused phone links\'');
    let p: CapabilityPayload;
    try {
      p = deps.links.check(worker, cap);
    } catch (err) {
      return refuse(req, res, err, origin, err instanceof CapabilityRefusal ? err.payload : null, worker);
    }

    if (p.k === 'view') {
      if (method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'a view link is opened, not posted', { allow: 'GET' });
      deps.links.spend(p, 'view');
      record(p.w, { type: 'PHONE_VIEW', ...origin });
      return deps.signIn(res, `/w/${encodeURIComponent(p.w)}`);
    }
    if (method === 'GET') {
      // What it would do, and a button that does it: the form posts to this same address.
      const what = p.k === 'answer' ? `pick option ${p.o} of the dialog on ${p.w}'s screen` : `give ${p.w}'s decision its option ${p.o + 1}`;
      const html = page('Answer from kingshand', `<p>This link will ${esc(what)}, once.</p><form method="post"><button type="submit">Answer</button></form>`);
      return send(res, 200, 'text/html; charset=utf-8', html, { ...SECURITY_HEADERS, 'content-security-policy': SECURITY_HEADERS['content-security-policy']!.replace("form-action 'none'", "form-action 'self'") });
    }
    if (method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'an answer link is posted', { allow: 'GET, POST' });
    // The request body is never read: the capability says everything, and nothing else is believed.
    req.resume();

    let call: () => Promise<unknown>;
    let label: string;
    if (p.k === 'answer') {
      const v = deps.fleet.view(p.w);
      const d = v?.dialog ?? null;
      if (!d || d.fingerprint !== p.b) {
        return refuse(req, res, new CapabilityRefusal('dialog-changed', 409, `the dialog this notification asked about is no longer on ${p.w}'s screen (${d ? 'another one is' : 'it shows no dialog now'}; another answer may have won, or the worker moved on)`), origin, p, worker);
      }
      label = `option ${p.o}`;
      const params: WireObject = { id: p.w, option: p.o, fingerprint: p.b };
      call = () => deps.served.answer!(params, ctx);
    } else {
      label = `option ${p.o + 1}`;
      const key = p.b;
      const index = p.o;
      call = async () => {
        const all = (await deps.served.decisions!({ all: true }, ctx)) as { key: string; options: string[] }[];
        const answer = all.find((x) => x.key === key)?.options[index];
        if (answer === undefined) throw new CapabilityRefusal('decision-changed', 409, `decision ${key} no longer offers that option`);
        return deps.served.decide!({ key, answer }, ctx);
      };
    }
    // Spent before the first await: a second tap, from this phone or another, finds it spent.
    deps.links.spend(p, label);
    const stageBefore = deps.fleet.view(p.w)?.stage ?? null;
    const started = Date.now();
    try {
      const result = (await call()) as Record<string, unknown>;
      record(p.w, { type: p.k === 'answer' ? 'PHONE_ANSWER' : 'PHONE_DECIDE', ...origin, option: p.o, ...(p.k === 'decide' ? { key: p.b } : { fingerprint: p.b }), ms: Date.now() - started }, stageBefore);
      deps.log?.({ worker: p.w, action: p.k, ms: Date.now() - started, host: origin.host }, 'phone link answered');
      const message = typeof result.message === 'string' ? result.message : `${p.w}: decision ${p.b} answered`;
      return answerWith(req, res, 200, true, message, { ok: true, result });
    } catch (err) {
      return refuse(req, res, err, origin, p, worker);
    }
  };
}
