/**
 * A scripted in-memory TerminalHost: each pane shows a ScreenReading chosen by the test, and
 * every send is recorded together with the reading that was on screen at that moment, so a
 * test can check the guards against what the worker actually faced.
 */
import type { ScreenReading, Screen } from '../../../io/screen/types.ts';
import type { BackendName, Key, PaneEvent, PaneInfo, PaneSpec, TerminalHost, ReadResult, ListResult, TextResult, ServerState, SendTextOptions } from '../../../io/terminal/types.ts';

export interface SentRecord {
  paneId: string;
  kind: 'text' | 'key';
  text?: string;
  key?: Key;
  /** What the screen said when the send happened. */
  reading: ScreenReading;
  /** Person command in flight (set by the test around hand send/key/stop), or automatic. */
  origin: 'person' | 'automatic';
}

interface Pane { info: PaneInfo; reading: ScreenReading; listeners: Set<(e: PaneEvent) => void> }

/** Readings are carried inside the Screen object; the test analyser takes them back out. */
const readings = new WeakMap<Screen, ScreenReading>();
export const scriptedAnalyse = (screen: Screen): ScreenReading => {
  const r = readings.get(screen);
  if (!r) throw new Error('screen was not produced by the scripted host');
  return r;
};

export function reading(over: Partial<ScreenReading> = {}): ScreenReading {
  return { state: 'idle', awaitingInput: false, blockedReason: null, promptBox: '', promptBoxKind: 'empty', readable: true, fingerprint: 'f-idle', lastActivity: 'idle', ...over };
}

export class ScriptedHost implements TerminalHost {
  readonly panes = new Map<string, Pane>();
  readonly sent: SentRecord[] = [];
  origin: 'person' | 'automatic' = 'automatic';
  /** Hook: runs after each send, so a test can make the agent react (e.g. /exit → exit). */
  onSend: (paneId: string, rec: SentRecord) => void = () => {};
  serverUp = true;
  private next = 1;

  constructor(readonly backend: BackendName = 'tmux', readonly survivesRestart = true) {}

  async ensureServer(): Promise<void> {}
  async serverState(): Promise<ServerState> { return this.serverUp ? { state: 'running' } : { state: 'stopped' }; }
  async createPane(spec: PaneSpec): Promise<PaneInfo> {
    const paneId = `%${this.next++}`;
    const info: PaneInfo = { paneId, name: spec.name, alive: true, exitCode: null, cols: spec.cols ?? 120, rows: spec.rows ?? 40 };
    this.panes.set(paneId, { info, reading: reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint: 'f-splash' }), listeners: new Set() });
    return { ...info };
  }
  async attach(paneId: string): Promise<PaneInfo | null> {
    const p = this.panes.get(paneId);
    return p ? { ...p.info } : null;
  }
  async readVisible(paneId: string): Promise<ReadResult> {
    const p = this.panes.get(paneId);
    if (!p) return { ok: false, error: `no pane ${paneId}` };
    const screen: Screen = { cols: 120, rows: 40, lines: [{ text: p.reading.lastActivity }], hasAttributes: false };
    // `pouring` is the host's word about the pane, not the screen's: it comes with the read, as tmux's does.
    const { pouring, ...onScreen } = p.reading;
    readings.set(screen, onScreen);
    return pouring ? { ok: true, screen, pouring: true } : { ok: true, screen };
  }
  async readScrollback(): Promise<TextResult> { return { ok: true, text: '' }; }
  async sendText(paneId: string, text: string, o?: SendTextOptions): Promise<void> {
    await o?.beforeEnter?.();
    this.record(paneId, { kind: 'text', text });
  }
  async typeText(paneId: string, text: string): Promise<void> { this.record(paneId, { kind: 'text', text }); }
  async sendKey(paneId: string, key: Key): Promise<void> { this.record(paneId, { kind: 'key', key }); }
  async resize(): Promise<void> {}
  async close(paneId: string): Promise<void> { this.panes.delete(paneId); }
  async list(): Promise<ListResult> { return { ok: true, panes: [...this.panes.values()].map((p) => ({ ...p.info })) }; }
  subscribe(paneId: string, listener: (e: PaneEvent) => void): () => void {
    const p = this.panes.get(paneId);
    p?.listeners.add(listener);
    return () => p?.listeners.delete(listener);
  }
  async dispose(): Promise<void> {}

  /** The agent repaints: the pane shows `r` and tells its subscribers. */
  show(paneId: string, r: ScreenReading): void {
    const p = this.panes.get(paneId)!;
    p.reading = r;
    for (const l of [...p.listeners]) l({ type: 'changed' });
  }
  exit(paneId: string, code: number | null): void {
    const p = this.panes.get(paneId)!;
    p.info = { ...p.info, alive: false, exitCode: code };
    for (const l of [...p.listeners]) l({ type: 'exited', code });
  }
  current(paneId: string): ScreenReading { return this.panes.get(paneId)!.reading; }

  private record(paneId: string, r: Omit<SentRecord, 'paneId' | 'reading' | 'origin'>): void {
    const p = this.panes.get(paneId);
    if (!p) throw new Error(`send to missing pane ${paneId}`);
    const rec: SentRecord = { paneId, ...r, reading: p.reading, origin: this.origin };
    this.sent.push(rec);
    this.onSend(paneId, rec);
  }
}
