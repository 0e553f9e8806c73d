/**
 * One Server-Sent Events stream per open page. The fleet page gets the fleet fragment on each
 * worker change; a worker page gets its head (condition, question, actions) on each change of
 * that worker, its screen on each pane change, and its details when the stage moves. Events,
 * never polls: the fleet host's subscribe (the feed `hand wait` reads) and the terminal host's
 * pane events. Each fragment is sent only when it differs from the last one sent.
 */
import type { ServerResponse } from 'node:http';
import type { FleetStore } from '../../persistence/types.ts';
import type { TerminalHost, BackendName } from '../../io/terminal/types.ts';
import type { FleetHostApi, WorkerViewLike } from '../fleet-api.ts';
import { fleetHtml, fleetTitle, type PageStandings, type PostureOf } from './render-fleet.ts';
import { workerDetailsHtml, workerHead, workerTitle } from './render-worker.ts';
import type { PageDecision } from './decision-form.ts';
import { screenHtml } from './screen-html.ts';
import { workerDetails, type NotesOf, type OverlapsOf } from './worker-details.ts';
import { esc } from './html.ts';
import { askedOf } from '../../io/screen/asked.ts';
import type { Screen } from '../../io/screen/types.ts';

/** What the worker asks, as every face lifts it (io/screen/asked.ts): its dialog, else its screen's rows. */
function askedOnPage(v: WorkerViewLike, screen: Screen): string | null {
  return askedOf(v.dialog ?? null, screen.lines.map((l) => l.text).join('\n')).question;
}
import { conditionOf } from '../wait-report.ts';

/** Only a worker blocked on its screen (not at a gate) asks a question there. */
const asks = (v: WorkerViewLike) => conditionOf(v) === 'blocked' && !v.gate;

/** The questions of the blocked workers among `views`, read off their screens. */
export async function questionsOf(screens: ScreenSource, views: WorkerViewLike[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    views.map(async (v) => {
      const q = await screens.question(v).catch(() => null);
      if (q) out.set(v.id, q);
    }),
  );
  return out;
}

export interface ScreenSource {
  /** The worker's visible screen as HTML (or a line saying why there is none), and its question when blocked. */
  read(view: WorkerViewLike): Promise<{ html: string; question: string | null }>;
  /** The question on a blocked worker's screen (see question.ts), or null. */
  question(view: WorkerViewLike): Promise<string | null>;
  /** Calls onChange when the worker's pane changes; returns the unsubscribe. */
  watch(view: WorkerViewLike, onChange: () => void): () => void;
}

/** Screens read straight from the terminal hosts (the fleet host reads text only). */
/** `far`: the terminal host of a worker on another machine, by host name (issue 28). */
export function hostScreens(hosts: Partial<Record<BackendName, TerminalHost>>, far: (name: string) => TerminalHost | undefined = () => undefined): ScreenSource {
  const hostOf = (v: WorkerViewLike): TerminalHost | undefined => (v.host && v.host !== 'local' ? far(v.host) : hosts[v.backend]);
  return {
    async read(v) {
      const host = hostOf(v);
      if (!v.paneId || !host) return { html: `<span class="muted">${esc(v.paneId ? `the ${v.backend} host${v.host !== 'local' ? ` on ${v.host}` : ''} is not available` : `no screen yet (${v.stage})`)}</span>`, question: null };
      const res = await host.readVisible(v.paneId);
      if (!res.ok) return { html: `<span class="muted">${esc(`screen not readable: ${res.error}`)}</span>`, question: null };
      return { html: screenHtml(res.screen), question: asks(v) ? askedOnPage(v, res.screen) : null };
    },
    async question(v) {
      const host = hostOf(v);
      if (!host || !asks(v)) return null;
      // The dialog the agent's reader found is what is asked (io/screen/asked.ts); the screen only without one.
      if (v.dialog) return askedOf(v.dialog, null).question;
      if (!v.paneId) return null;
      const res = await host.readVisible(v.paneId);
      return res.ok ? askedOnPage(v, res.screen) : null;
    },
    watch(v, onChange) {
      const host = hostOf(v);
      if (!v.paneId || !host) return () => {};
      return host.subscribe(v.paneId, (e) => {
        if (e.type !== 'title') onChange();
      });
    },
  };
}

export interface StreamDeps {
  fleet: FleetHostApi;
  store: Pick<FleetStore, 'getWorker' | 'getProject' | 'journal'>;
  screens: ScreenSource;
  postureOf: PostureOf;
  /** null: the fleet page. */
  worker: string | null;
  /** The worker's open decisions, for the head's answer forms (none when absent). */
  decisionsOf?: (v: WorkerViewLike) => Promise<PageDecision[]>;
  /** Other live workers touching the same files, shown with the details (worker-details.ts). */
  overlapsOf?: OverlapsOf;
  /** The person's notes on the worker's review items, shown with the details (annotations-html.ts). */
  notesOf?: NotesOf;
  /** Each worker's cost and a lost worker's resume (none when absent). */
  standingsOf?: (views: WorkerViewLike[]) => Promise<PageStandings>;
}

const KEEPALIVE_MS = 15_000;
const FLEET_COALESCE_MS = 20;

/** Starts the stream on `res` (headers already written); returns its close. */
export function openStream(res: ServerResponse, d: StreamDeps): () => void {
  let closed = false;
  const last = new Map<string, string>();
  const emit = (event: string, payload: Record<string, string>) => {
    if (closed) return;
    const data = JSON.stringify(payload);
    if (last.get(event) === data) return;
    last.set(event, data);
    res.write(`event: ${event}\ndata: ${data}\n\n`);
  };
  const keepalive = setInterval(() => !closed && res.write(': keepalive\n\n'), KEEPALIVE_MS);
  const offs: (() => void)[] = [() => clearInterval(keepalive)];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const off of offs.splice(0)) off();
    res.end();
  };

  if (d.worker === null) {
    let timer: NodeJS.Timeout | null = null;
    let pushing = Promise.resolve();
    const push = () => {
      timer = null;
      // In order: a slow screen read must not let an older fleet overwrite a newer one.
      pushing = pushing.then(async () => {
        const views = d.fleet.views();
        const [questions, notes] = await Promise.all([questionsOf(d.screens, views), d.standingsOf?.(views) ?? new Map()]);
        emit('fleet', { html: fleetHtml(views, d.postureOf, questions, notes), title: fleetTitle(views) });
      }).catch(() => {});
    };
    offs.push(d.fleet.subscribe(() => {
      timer ??= setTimeout(push, FLEET_COALESCE_MS);
    }));
    offs.push(() => timer && clearTimeout(timer));
    push();
    return close;
  }

  const id = d.worker;
  // Screen reads: one at a time; a change during a read asks for one more read after it.
  // One read gives the screen and the question the head shows.
  let question: string | null = null;
  let reading = false;
  let again = false;
  const readScreen = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const v = d.fleet.view(id);
        if (!v || closed) return;
        const read = await d.screens.read(v);
        emit('screen', { html: read.html });
        if (read.question !== question) {
          question = read.question;
          pushHead(d.fleet.view(id) ?? v);
        }
      } while (again && !closed);
    } catch {
      // A failed read shows the last screen; the next change reads again.
    } finally {
      reading = false;
    }
  };

  let paneOff: (() => void) | null = null;
  let paneOf: string | null = null;
  let stageOf: string | null = null;
  // In order, like the fleet: a slow decisions read must not let an older head overwrite a newer one.
  let heading = Promise.resolve();
  const pushHead = (v: WorkerViewLike) => {
    heading = heading
      .then(async () => {
        const [decisions, notes] = await Promise.all([d.decisionsOf ? d.decisionsOf(v) : [], d.standingsOf?.([v]) ?? new Map()]);
        emit('head', { html: workerHead(v, d.postureOf(v.project), question, decisions, notes.get(v.id)), title: workerTitle(v) });
      })
      .catch(() => {});
  };
  const onView = (v: WorkerViewLike) => {
    if (v.id !== id || closed) return;
    pushHead(v);
    if (v.paneId !== paneOf) {
      paneOff?.();
      paneOf = v.paneId;
      paneOff = d.screens.watch(v, () => void readScreen());
    }
    void readScreen();
    if (v.stage !== stageOf) {
      const first = stageOf === null;
      stageOf = v.stage;
      // The page was rendered with the details of this stage; later stages bring new ones.
      if (!first) void workerDetails(v, d.store, undefined, d.overlapsOf, d.notesOf).then((det) => emit('details', { html: workerDetailsHtml(det, v.id) })).catch(() => {});
    }
  };
  offs.push(d.fleet.subscribe(onView));
  offs.push(() => paneOff?.());
  const now = d.fleet.view(id);
  if (now) onView(now);
  return close;
}
