/**
 * Gemini CLI's hooks as the second witness: the payloads 0.61.0 sent in a run against the fake
 * API (copied from a hook that logged its stdin) say the same words as Claude Code's hooks:
 * BeforeAgent working, AfterAgent idle, Notification ToolPermission needs-input, SessionEnd ended.
 */
import { describe, expect, it } from 'vitest';
import { noteOf } from '../../../contract/hook-note.ts';
import { wordOf } from '../../../actors/witness.ts';
import { geminiWitnessHooks, GEMINI_WITNESS_EVENTS, WITNESS_HOOK_NAME } from '../../../io/agent/gemini/index.ts';

const base = { session_id: 's1', transcript_path: '/tmp/h/.gemini/tmp/proj/chats/session.jsonl', cwd: '/tmp/proj', timestamp: '2026-12-02T08:12:23.240Z' };
const word = (event: string, extra: Record<string, unknown>) => wordOf(noteOf('w1', event, { ...base, hook_event_name: event, ...extra }, 1));

describe("Gemini CLI's hooks speak the witness's words", () => {
  it('BeforeAgent (a prompt was submitted) says working', () => {
    expect(word('BeforeAgent', { prompt: 'Read the brief' })).toBe('working');
  });
  it('AfterAgent (the turn ended) says idle', () => {
    expect(word('AfterAgent', { prompt: 'x', prompt_response: 'Done.', stop_hook_active: false })).toBe('idle');
  });
  it('a ToolPermission notification says needs-input', () => {
    expect(word('Notification', { notification_type: 'ToolPermission', message: 'Tool Confirm Shell Command requires execution', details: { type: 'exec' } })).toBe('needs-input');
  });
  it('SessionEnd says ended; SessionStart says nothing about state', () => {
    expect(word('SessionEnd', { reason: 'exit' })).toBe('ended');
    expect(word('SessionStart', { source: 'startup' })).toBeNull();
  });
  it('the settings run `hand hook <event>` for each event, named so a second seed replaces them, with a timeout in ms', () => {
    const hooks = geminiWitnessHooks({ node: '/usr/bin/node', handBin: '/opt/kh/bin/hand.js', home: '/var/kh' });
    expect(Object.keys(hooks)).toEqual([...GEMINI_WITNESS_EVENTS]);
    expect(hooks.AfterAgent![0]!.hooks[0]).toEqual({ type: 'command', name: WITNESS_HOOK_NAME, command: "/usr/bin/node /opt/kh/bin/hand.js --home /var/kh hook AfterAgent", timeout: 10_000 });
  });
});
