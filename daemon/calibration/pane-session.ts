/**
 * The calibration's hands and eyes on one pane: keys and text in, the visible screen out, and
 * every wait bounded with the words of what it waited for. The drive never asks the screen
 * reader whether a situation has come (a misreading reader would then hang it or fool it): it
 * waits for what the situation itself caused — the words the fake model said, the draft it
 * typed, the request the agent sent, the process's exit — and only then asks the reader.
 */
import type { Key } from '../../contract/keys.ts';
import type { Screen } from '../../io/screen/types.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';

/** How often a wait looks at the screen. */
const POLL_MS = 100;

export const screenText = (screen: Screen): string => screen.lines.map((l) => l.text).join('\n');

export interface PaneSession {
  /** The last screen read (null before the first read, or when every read failed). */
  readonly last: Screen | null;
  read(): Promise<Screen | null>;
  type(text: string): Promise<void>;
  key(key: Key): Promise<void>;
  /** The process's exit status once the host reported it ended; undefined while it runs. */
  exitStatus(): number | null | undefined;
  /** Polls until `accept` holds (then that screen), or null when `ms` passed. */
  waitFor(accept: (text: string, screen: Screen) => boolean, ms: number): Promise<Screen | null>;
  /**
   * Until `accept` has held on every read for `holdMs` (a dialog that animates still holds), or
   * null when `ms` passed or `stop()` says there is no point waiting any more.
   */
  waitHeld(accept: (text: string) => boolean, holdMs: number, ms: number, stop?: () => boolean): Promise<Screen | null>;
  /** Until the text has not changed for `quietMs` and `accept` holds, or null. */
  waitQuiet(quietMs: number, ms: number, accept?: (text: string) => boolean): Promise<Screen | null>;
  /** Until the process ended, or false when `ms` passed. */
  waitExit(ms: number): Promise<boolean>;
  dispose(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function paneSession(host: TerminalHost, paneId: string): PaneSession {
  let last: Screen | null = null;
  let exit: { code: number | null } | undefined;
  const unsubscribe = host.subscribe(paneId, (e) => {
    if (e.type === 'exited') exit = { code: e.code };
  });
  const read = async () => {
    const r = await host.readVisible(paneId);
    if (r.ok) last = r.screen;
    return r.ok ? r.screen : null;
  };
  const poll = async <T>(step: () => Promise<T | null>, ms: number, stop: () => boolean = () => false): Promise<T | null> => {
    const until = Date.now() + ms;
    for (;;) {
      const got = await step();
      if (got !== null) return got;
      if (Date.now() >= until || stop()) return null;
      await sleep(POLL_MS);
    }
  };
  return {
    get last() {
      return last;
    },
    read,
    type: (text) => host.typeText(paneId, text),
    key: (key) => host.sendKey(paneId, key),
    exitStatus: () => (exit === undefined ? undefined : exit.code),
    waitFor: (accept, ms) => poll(async () => {
      const s = await read();
      return s && accept(screenText(s), s) ? s : null;
    }, ms),
    waitHeld(accept, holdMs, ms, stop) {
      let since: number | null = null;
      return poll(async () => {
        const s = await read();
        if (!s || !accept(screenText(s))) {
          since = null;
          return null;
        }
        since ??= Date.now();
        return Date.now() - since >= holdMs ? s : null;
      }, ms, stop);
    },
    waitQuiet(quietMs, ms, accept = () => true) {
      let text: string | null = null;
      let since = Date.now();
      return poll(async () => {
        const s = await read();
        if (!s) return null;
        const t = screenText(s);
        if (t !== text) {
          text = t;
          since = Date.now();
          return null;
        }
        return t.trim() !== '' && Date.now() - since >= quietMs && accept(t) ? s : null;
      }, ms);
    },
    async waitExit(ms) {
      const until = Date.now() + ms;
      while (exit === undefined && Date.now() < until) {
        // A host that missed the event still lists the pane dead.
        const list = await host.list();
        if (list.ok && list.panes.some((p) => p.paneId === paneId && p.alive === false)) {
          exit ??= { code: list.panes.find((p) => p.paneId === paneId)!.exitCode };
          break;
        }
        await sleep(POLL_MS);
      }
      return exit !== undefined;
    },
    dispose: unsubscribe,
  };
}
