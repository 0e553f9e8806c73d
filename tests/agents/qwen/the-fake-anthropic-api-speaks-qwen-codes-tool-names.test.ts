/**
 * The fake Anthropic API says its scripted calls in the tool names a request offers: Qwen Code
 * (0.15.10, its Anthropic auth) offers Gemini CLI's names — `read_file`, `write_file`, `edit`,
 * `run_shell_command`, `ask_user_question` — with Claude Code's inputs. So the one script (the
 * brief read, a queue in Claude Code's words) drives it too; Claude Code's and OpenCode's own names
 * are answered as before.
 */
import { describe, expect, it } from 'vitest';
import { dialectOf, inOfferedDialect } from '../../../io/fake-model/anthropic/tool-dialect.ts';

/** The tools Qwen Code 0.15.10 offers in its agent loop (read from its requests to the fake). */
const QWEN_TOOLS = ['tool_search', 'agent', 'task_stop', 'send_message', 'skill', 'list_directory', 'read_file', 'grep_search', 'glob', 'edit', 'write_file', 'run_shell_command', 'todo_write', 'web_fetch', 'monitor'];

describe("the fake Anthropic API speaks Qwen Code's tool names", () => {
  it('each call of the script in its names, the inputs Claude Code\'s', () => {
    expect(dialectOf(QWEN_TOOLS)).toBe('qwen');
    expect(inOfferedDialect({ kind: 'tool_use', name: 'Read', input: { file_path: '/w/brief.md' }, tag: 'brief' }, QWEN_TOOLS)).toEqual({ kind: 'tool_use', name: 'read_file', input: { file_path: '/w/brief.md' }, tag: 'brief' });
    expect(inOfferedDialect({ kind: 'tool_use', name: 'Write', input: { file_path: '/w/out/report.md', content: 'r' } }, QWEN_TOOLS)).toMatchObject({ name: 'write_file', input: { file_path: '/w/out/report.md', content: 'r' } });
    expect(inOfferedDialect({ kind: 'tool_use', name: 'Bash', input: { command: 'ls', description: 'list', run_in_background: true } }, QWEN_TOOLS)).toMatchObject({ name: 'run_shell_command', input: { command: 'ls', description: 'list' } });
    expect(inOfferedDialect({ kind: 'tool_use', name: 'AskUserQuestion', input: { questions: [] } }, QWEN_TOOLS)).toMatchObject({ name: 'ask_user_question' });
    // A text reply, and a call in a request of Claude Code's or OpenCode's own names, as before.
    expect(inOfferedDialect({ kind: 'text', text: 'hi' }, QWEN_TOOLS)).toEqual({ kind: 'text', text: 'hi' });
    expect(dialectOf(['Read', 'Bash', 'Write'])).toBe('claude');
    expect(dialectOf(['read', 'bash', 'write', 'question'])).toBe('opencode');
  });
});
