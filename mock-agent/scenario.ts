/**
 * Scenario files script longer runs. JSON:
 * {
 *   "suggestion": "run the tests",                 // optional prompt-suggestion text
 *   "turns": [
 *     { "match": "build", "steps": [ ... ] },      // used for every prompt containing "build"
 *     { "match": "deploy", "once": true, "steps": [ ... ] },
 *     { "steps": [ ... ] }                         // no match: used in order by unclaimed prompts
 *   ]
 * }
 * A step is one of steps.ts's kinds; durations are `ms` (real) or `seconds` (mock seconds, one
 * tick each). A prompt no entry claims falls back to the built-in trigger words.
 */
import { readFileSync } from 'node:fs';
import type { Step } from './steps.ts';

export interface ScenarioTurn {
  match?: string;
  once?: boolean;
  steps: Step[];
}

export interface Scenario {
  suggestion?: string;
  turns: ScenarioTurn[];
}

export class ScenarioError extends Error {}

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Raw, key: string, where: string, optional = false): string | undefined {
  const v = o[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string') throw new ScenarioError(`${where}: "${key}" must be a string`);
  return v;
}

function duration(o: Raw, where: string, tickMs: number, required: boolean): number | undefined {
  if (typeof o.ms === 'number' && o.ms >= 0) return o.ms;
  if (typeof o.seconds === 'number' && o.seconds >= 0) return o.seconds * tickMs;
  if (o.ms !== undefined || o.seconds !== undefined) throw new ScenarioError(`${where}: "ms"/"seconds" must be a number >= 0`);
  if (required) throw new ScenarioError(`${where}: needs "ms" or "seconds"`);
  return undefined;
}

function parseStep(raw: unknown, where: string, tickMs: number): Step {
  if (!isObject(raw)) throw new ScenarioError(`${where}: a step must be an object`);
  switch (raw.kind) {
    case 'think':
      return { kind: 'think', ms: duration(raw, where, tickMs, true) as number };
    case 'reply': {
      const ms = duration(raw, where, tickMs, false);
      return ms === undefined ? { kind: 'reply', text: str(raw, 'text', where) as string } : { kind: 'reply', text: str(raw, 'text', where) as string, ms };
    }
    case 'bash': {
      const step: Step = { kind: 'bash', command: str(raw, 'command', where) as string };
      const optional = ['description', 'activity', 'output'].flatMap((key) => {
        const value = str(raw, key, where, true);
        return value === undefined ? [] : [[key, value]];
      });
      return { ...step, ...Object.fromEntries(optional) };
    }
    case 'ask': {
      const options = raw.options;
      if (!Array.isArray(options) || options.length < 2 || options.length > 4) throw new ScenarioError(`${where}: "options" must list 2-4 options`);
      return {
        kind: 'ask',
        header: str(raw, 'header', where) as string,
        question: str(raw, 'question', where) as string,
        options: options.map((o, i) => {
          if (!isObject(o)) throw new ScenarioError(`${where}: option ${i + 1} must be an object`);
          return { label: str(o, 'label', `${where} option ${i + 1}`) as string, description: str(o, 'description', `${where} option ${i + 1}`, true) ?? '' };
        }),
      };
    }
    case 'write': {
      const content = str(raw, 'content', where, true);
      return { kind: 'write', path: str(raw, 'path', where) as string, ...(content !== undefined && { content }) };
    }
    case 'error':
      return { kind: 'error', text: str(raw, 'text', where) as string };
    case 'hang':
      return { kind: 'hang' };
    case 'silent':
      return { kind: 'silent' };
    case 'exit':
      if (typeof raw.code !== 'number' || !Number.isInteger(raw.code) || raw.code < 0 || raw.code > 255) throw new ScenarioError(`${where}: "code" must be an integer 0-255`);
      return { kind: 'exit', code: raw.code };
    default:
      throw new ScenarioError(`${where}: unknown step kind ${JSON.stringify(raw.kind)}`);
  }
}

export function parseScenario(text: string, tickMs: number): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError(`not JSON: ${(err as Error).message}`);
  }
  if (!isObject(raw) || !Array.isArray(raw.turns)) throw new ScenarioError('expected an object with a "turns" list');
  const turns = raw.turns.map((t, i): ScenarioTurn => {
    const where = `turn ${i + 1}`;
    if (!isObject(t) || !Array.isArray(t.steps) || t.steps.length === 0) throw new ScenarioError(`${where}: needs a non-empty "steps" list`);
    const match = str(t, 'match', where, true);
    const steps = t.steps.map((s, j) => parseStep(s, `${where} step ${j + 1}`, tickMs));
    return { ...(match !== undefined && { match }), ...(t.once === true && { once: true }), steps };
  });
  const suggestion = str(raw, 'suggestion', 'scenario', true);
  return { turns, ...(suggestion !== undefined && { suggestion }) };
}

export function loadScenario(path: string, tickMs: number): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioError(`cannot read ${path}: ${(err as Error).message}`);
  }
  return parseScenario(text, tickMs);
}

/** Picks (and, for sequential or `once` entries, consumes) the turn for a prompt. */
export class ScenarioPlayer {
  private readonly turns: ScenarioTurn[];
  constructor(scenario: Scenario | null) {
    this.turns = scenario ? [...scenario.turns] : [];
  }

  next(prompt: string): Step[] | null {
    const matched = this.turns.findIndex((t) => t.match !== undefined && prompt.includes(t.match));
    const index = matched >= 0 ? matched : this.turns.findIndex((t) => t.match === undefined);
    if (index < 0) return null;
    const turn = this.turns[index] as ScenarioTurn;
    if (turn.match === undefined || turn.once) this.turns.splice(index, 1);
    return turn.steps;
  }
}
