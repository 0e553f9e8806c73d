/**
 * A calibration's replies said in the Anthropic Messages API (io/fake-model/anthropic.ts), for
 * every agent that talks to it (Claude Code, OpenCode, Qwen Code): the same four script items, told apart
 * only by the names of the agent's own shell and question tools and how its question tool marks
 * one choice. Each kit names those; the shapes are written once.
 */
// Type only: the fake is loaded only when a calibration runs (a profile is read by every command).
import type { ScriptItem } from '../fake-model/anthropic.ts';
import { CALIBRATION_QUESTION, slowWordDelayMs, type CalibrationReply } from './calibration-kit.ts';

export interface AnthropicTools {
  /** The agent's shell tool (`Bash`, `bash`, `run_shell_command`). */
  shell: string;
  /** The agent's question tool (`AskUserQuestion`, `question`). */
  ask: string;
  /** What its question tool takes to allow one choice only (`{ multiSelect: false }`, `{ multiple: false }`). */
  oneChoice: Record<string, boolean>;
}

export function anthropicReply(reply: CalibrationReply, tools: AnthropicTools): ScriptItem {
  switch (reply.kind) {
    case 'slow':
      return { kind: 'text', text: reply.text, wordDelayMs: slowWordDelayMs(reply) };
    case 'permission':
      return { kind: 'tool_use', name: tools.shell, text: 'I will run a command.', input: { command: `touch ${reply.file}`, description: 'Create the calibration file' } };
    case 'question':
      return { kind: 'tool_use', name: tools.ask, text: 'I have a question.', input: { questions: [{ ...CALIBRATION_QUESTION, ...tools.oneChoice }] } };
    case 'error':
      return { kind: 'error', status: 400, errorType: 'invalid_request_error', message: reply.message };
  }
}
