/**
 * What the real Gemini CLI, OpenCode and Qwen Code workers-through-hand tests do alike (issues 27
 * and 45): the work they give (commit a file, then write the report), the brief's approval under
 * ask, a permission dialog waited for and answered through `hand answer`, and the witness's word
 * waited for in `hand status`. Each test keeps what its agent shows (its dialog's words, its tools).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { RequestRecord, ScriptItem } from '../../io/fake-model/anthropic.ts';
import { until } from '../helpers/temp.ts';
import type { HandAgentWorld } from './hand-agent-world.ts';

type World = HandAgentWorld<any>;

export const THE_WORK = {
  task: 'Commit the feature file, then write your report.',
  commit: 'echo feature > feature.txt && git add feature.txt && git -c user.name=w -c user.email=w@example.invalid commit -q -m "Add the feature file" && echo committed',
  report: '# Report\n\nStatus: done. The feature file is committed.\n',
};

/**
 * THE_WORK as the fake Anthropic API scripts it (OpenCode, Qwen Code): in Claude Code's tool
 * names, which the fake says in the agent's own (io/fake-model/anthropic/tool-dialect.ts).
 */
export const theWorkOnAnthropic = (reportPath: string): ScriptItem[] => [
  { kind: 'tool_use', name: 'Bash', text: 'I will commit.', input: { command: THE_WORK.commit, description: 'Commit the feature' } },
  { kind: 'tool_use', name: 'Write', text: 'I will write the report.', input: { file_path: reportPath, content: THE_WORK.report } },
  { kind: 'text', text: 'Done.' },
];

/** The agent-loop request to the fake Anthropic API that carries the result of a tool call (sent back by the call's id). */
export const sentToolResult = (r: RequestRecord): boolean => r.kind === 'main' && (r.summary?.toolResults.length ?? 0) > 0;

/** The file's fake and world, made before its tests and removed after them (the world first). */
export function useAgentWorld<F extends { close(): Promise<void> }, W extends { cleanup(): Promise<void> }>(start: () => Promise<F>, make: (fake: F) => Promise<W>): { readonly fake: F; readonly w: W } {
  const made = {} as { fake: F; w: W };
  beforeAll(async () => {
    made.fake = await start();
    made.w = await make(made.fake);
  });
  afterAll(async () => {
    await made.w?.cleanup();
    await made.fake?.close();
  });
  return made;
}

export interface SeenDialog {
  question: string;
  fingerprint: string;
  options: { label: string }[];
  cursor: number;
  numbered?: boolean;
  across?: boolean;
}

/** Dispatches `id` with THE_WORK under ask, as `agent`: it waits for the brief's approval, which is given. */
export async function dispatchAndApprove(w: World, id: string, agent: string): Promise<{ json: any }> {
  const d = await w.dispatch(id, THE_WORK.task);
  expect(d.json).toMatchObject({ agent, permissions: 'ask', seeded: null, stage: 'gate.awaitingBriefApproval' });
  const approved = await w.hand(['approve', id, '--json']);
  expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  return d;
}

/** Waits until `id` is blocked on a permission awaiting the person; its dialog as hand shows it. */
export async function blockedOnPermission(w: World, id: string, within: string): Promise<SeenDialog> {
  const blocked = await w.wait(id, 'blocked', within);
  expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
  expect(blocked.json).toMatchObject({ reason: 'blocked', blockedReason: 'permission', awaitingInput: true });
  return blocked.json.dialog as SeenDialog;
}

/**
 * `id`'s row in `hand status` once its witness (`witness`: what it is called) has said `event` (or
 * one of several: status shows the last note only, and an agent may say one thing twice — Qwen
 * Code follows its Stop with an idle_prompt Notification a fraction of a second later).
 */
export function witnessSaid(w: World, id: string, event: string | string[], witness = 'hook', word?: string): Promise<Record<string, any>> {
  const events = [event].flat();
  const what = `the ${events.join(' or ')} ${witness}${word ? ` saying ${word}` : ''} of ${id} in hand status`;
  return until(what, () => w.status(id), (s) => events.includes(s.hook?.event) && (!word || s.hook.word === word), 20_000, 250);
}

/** The witness said needs-input, and the screen agrees. */
export async function expectNeedsInputHeard(w: World, id: string, witness?: string): Promise<void> {
  const row = await witnessSaid(w, id, 'Notification', witness);
  expect(row.hook).toMatchObject({ word: 'needs-input' });
  expect(row.disputed).toBeNull();
}

/** `hand answer <id> <option>` against the dialog seen; its answer. */
export async function answer(w: World, id: string, option: number, dialog: SeenDialog): Promise<{ json: any }> {
  const answered = await w.hand(['answer', id, String(option), '--fingerprint', dialog.fingerprint, '--json']);
  expect(answered.code, answered.stdout + answered.stderr).toBe(0);
  return answered;
}
