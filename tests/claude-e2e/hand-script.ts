/**
 * The scripted model behind a Hand session whose order is not fixed: the person types while
 * workers run, and Monitor notifications arrive between (or inside) turns. Each request is
 * answered from what it carries — a tool result continues the turn that made the call; a
 * person's message or a notification starts the turn the test gave for it — never from its
 * position in a queue. Every tool call is kept with the result Claude Code sent back, so the
 * test can check each one.
 */
import type { RequestSummary, ScriptItem, ToolResultSummary } from '../../io/fake-model/anthropic.ts';

export interface HandCall {
  turn: string;
  name: string;
  input: Record<string, unknown>;
  /** The result as Claude Code sent it back; undefined until it has. */
  result?: ToolResultSummary;
}

/** One tool call of a turn; its input may depend on the results of the turn's earlier calls. */
export interface TurnStep {
  name: string;
  input: (earlier: HandCall[]) => Record<string, unknown>;
}

export interface Turn {
  steps: TurnStep[];
  /** The turn's closing words to the person, from its calls' results. */
  say: (calls: HandCall[]) => string;
}

/** A trigger: `person:<their words>` or `wake:<the notification's text>`. */
export type React = (trigger: { kind: 'person' | 'wake'; text: string }) => { key: string; turn: Turn }[];

const NOTIFICATION = '<task-notification>';

interface Running {
  key: string;
  turn: Turn;
  calls: HandCall[];
}

export class HandScript {
  readonly calls: HandCall[] = [];
  /** Each trigger's key, in the order its turn started. */
  readonly started: string[] = [];
  /** Each turn's key with what it said, once said. */
  readonly said = new Map<string, string>();
  /** Every notification text the session received (Monitor events and their expiry). */
  readonly notifications: string[] = [];
  private readonly queue: { key: string; turn: Turn }[] = [];
  private readonly seen = new Set<string>();
  private readonly inflight = new Map<string, { run: Running; call: HandCall }>();

  constructor(private readonly react: React) {}

  /** For startFakeAnthropic({ respond }). */
  readonly respond = (summary: RequestSummary, seq: number): ScriptItem | null => {
    for (const text of summary.lastUserTexts) this.take(text);
    // A wake line that came during a turn rides after the tool result as a system message (never the person's words).
    for (const text of summary.systemTexts) if (text.includes(NOTIFICATION)) this.take(text);
    const back = summary.toolResults.map((r) => ({ r, at: this.inflight.get(r.toolUseId) })).find((x) => x.at);
    if (back?.at) {
      this.inflight.delete(back.r.toolUseId);
      back.at.call.result = back.r;
      return this.advance(back.at.run, seq, '');
    }
    const next = this.queue.shift();
    if (!next) return { kind: 'text', text: 'Nothing new.' };
    return this.advance(this.begin(next), seq, '');
  };

  private take(text: string): void {
    const trimmed = text.trimStart();
    if (trimmed.includes(NOTIFICATION)) {
      this.notifications.push(trimmed);
      this.enqueue(this.react({ kind: 'wake', text: trimmed }));
    } else if (!trimmed.startsWith('<system-reminder>') && trimmed !== '') {
      this.enqueue(this.react({ kind: 'person', text: trimmed }));
    }
  }

  /** A trigger already seen (a wake line printed again, a repeated message) starts nothing new. */
  private enqueue(triggers: { key: string; turn: Turn }[]): void {
    for (const t of triggers) {
      if (this.seen.has(t.key)) continue;
      this.seen.add(t.key);
      this.queue.push(t);
    }
  }

  private begin(t: { key: string; turn: Turn }): Running {
    this.started.push(t.key);
    return { key: t.key, turn: t.turn, calls: [] };
  }

  /** The run's next call, or its closing words; a trigger that came meanwhile starts at once. */
  private advance(run: Running, seq: number, lead: string): ScriptItem {
    const step = run.turn.steps[run.calls.length];
    if (step) {
      const call: HandCall = { turn: run.key, name: step.name, input: step.input(run.calls) };
      run.calls.push(call);
      this.calls.push(call);
      this.inflight.set(`toolu_fake_${seq}`, { run, call });
      return { kind: 'tool_use', name: step.name, input: call.input, ...(lead ? { text: lead } : {}) };
    }
    const own = run.turn.say(run.calls);
    this.said.set(run.key, own);
    const words = lead ? `${lead}\n\n${own}` : own;
    const next = this.queue.shift();
    // A notification that arrived with a tool result is answered in the same turn, after these words.
    if (next) return this.advance(this.begin(next), seq, words);
    return { kind: 'text', text: words };
  }
}

/** The result's content as the JSON object the tool returned (Claude Code passes it compact). */
export function resultJson(call: HandCall | undefined): any {
  if (!call?.result) throw new Error(`no result yet for ${call ? `${call.turn}: ${call.name}` : 'a call that was never made'}`);
  if (call.result.isError) throw new Error(`${call.turn}: ${call.name} failed: ${call.result.content}`);
  return JSON.parse(call.result.content);
}

/** A call of one of the hand MCP tools, its input from the turn's earlier calls. */
export const mcp = (name: string, input: (earlier: HandCall[]) => Record<string, unknown> = () => ({})): TurnStep => ({ name: `mcp__hand__${name}`, input });

/** Arms the kit's Monitor on `command` (its CLAUDE.md's `hand watch --needs-you …`). */
export const monitorStep = (command: string): TurnStep => ({ name: 'Monitor', input: () => ({ description: 'fleet needs you', timeout_ms: 1_800_000, command }) });

/**
 * A HandScript's reactions from the test's table: what the person types starts the turn of the
 * first name in `say` whose words it contains (key `person:<name>`; words the test never says
 * start nothing), and each event of a wake line (one <event> per Monitor line) the turn
 * `wakeTurnOf` gives it. `ctx` is what the turns need of the test (paths, the script's calls).
 */
export function handTurns<K extends string, C>(say: Record<K, string>, personTurnOf: (name: K, ctx: C) => Turn, wakeTurnOf: (event: string, ctx: C) => { key: string; turn: Turn }): (ctx: C) => React {
  return (ctx) => (t) => {
    if (t.kind === 'wake') return eventsOf(t.text).map((event) => wakeTurnOf(event, ctx));
    const name = (Object.keys(say) as K[]).find((k) => t.text.includes(say[k]));
    return name === undefined ? [] : [{ key: `person:${name}`, turn: personTurnOf(name, ctx) }];
  };
}

/**
 * The events of one notification text: Claude Code puts each Monitor line in its own <event>, and
 * lines that arrive together (a gate and a landing during one turn) come in one message.
 */
function eventsOf(text: string): string[] {
  return [...text.matchAll(/<event>([\s\S]*?)<\/event>/g)].map((m) => m[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}

/** The turn for a wake line the test has no turn of its own for: said to the person as the fleet printed it. */
export function fleetLineTurn(event: string): { key: string; turn: Turn } {
  const line = event.replace(/ → .*$/s, '');
  return { key: `wake:${line}`, turn: { steps: [], say: () => `Fleet: ${line}.` } };
}
