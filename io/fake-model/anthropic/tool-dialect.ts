/**
 * The fake's script says its tool calls in Claude Code's words (Read, Write, Bash,
 * AskUserQuestion). Another CLI that speaks the same Messages API offers its own tools: OpenCode
 * (1.17.19, 1.18.33) offers `read`, `write`, `edit`, `bash` and `question`, with camelCase inputs
 * (`filePath`, `oldString`) and `multiple` for `multiSelect`; Qwen Code (0.15.6, 0.15.10, with
 * its Anthropic auth) offers Gemini CLI's names — `read_file`, `write_file`, `edit`,
 * `run_shell_command`, `ask_user_question` — with Claude Code's inputs. A call is said in the words
 * the request offers, so one script (trigger words, the brief read, the queue) drives all three; a
 * request that offers Claude Code's names gets the call unchanged. Pure.
 */
import type { ScriptItem } from './script.ts';

type Input = Record<string, unknown>;
type Rewrite = { name: string; input(i: Input): Input };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const defined = (o: Input): Input => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** OpenCode's names and inputs for Claude Code's calls (read from the tools its requests offer). */
const OPENCODE: Record<string, Rewrite> = {
  Read: { name: 'read', input: (i) => defined({ filePath: str(i.file_path) }) },
  Write: { name: 'write', input: (i) => defined({ filePath: str(i.file_path), content: str(i.content) }) },
  Edit: { name: 'edit', input: (i) => defined({ filePath: str(i.file_path), oldString: str(i.old_string), newString: str(i.new_string) }) },
  Bash: { name: 'bash', input: (i) => defined({ command: str(i.command), description: str(i.description) }) },
  AskUserQuestion: {
    name: 'question',
    input: (i) => ({
      questions: (Array.isArray(i.questions) ? (i.questions as Input[]) : []).map((q) => defined({
        question: q.question,
        header: q.header,
        options: q.options,
        multiple: typeof q.multiSelect === 'boolean' ? q.multiSelect : undefined,
      })),
    }),
  },
};

/** Qwen Code's names; the inputs are Claude Code's (its ask_user_question is deferred but answers a direct call). */
const QWEN: Record<string, Rewrite> = {
  Read: { name: 'read_file', input: (i) => i },
  Write: { name: 'write_file', input: (i) => i },
  Edit: { name: 'edit', input: (i) => i },
  Bash: { name: 'run_shell_command', input: (i) => defined({ command: str(i.command), description: str(i.description) }) },
  AskUserQuestion: { name: 'ask_user_question', input: (i) => i },
};

type Dialect = 'claude' | 'opencode' | 'qwen';

/** Which dialect a request's offered tools speak: Claude Code's own names, OpenCode's or Qwen Code's. */
export function dialectOf(tools: readonly string[]): Dialect {
  if (tools.includes('Read') || tools.includes('Bash')) return 'claude';
  if (tools.includes('read_file') && tools.includes('run_shell_command')) return 'qwen';
  return tools.includes('read') && tools.includes('bash') ? 'opencode' : 'claude';
}

const DIALECTS: Record<Exclude<Dialect, 'claude'>, Record<string, Rewrite>> = { opencode: OPENCODE, qwen: QWEN };

/** `item` said in the dialect `tools` speak (a call the dialect has no word for is left as it is). */
export function inOfferedDialect(item: ScriptItem, tools: readonly string[]): ScriptItem {
  const dialect = dialectOf(tools);
  if (item.kind !== 'tool_use' || dialect === 'claude') return item;
  const rewrite = DIALECTS[dialect][item.name];
  if (!rewrite) return item;
  return { ...item, name: rewrite.name, input: rewrite.input(item.input) };
}

/** OpenCode's title request (its system prompt says so): it shows the reply as the session's title, word for word. */
export const OPENCODE_TITLE_PROMPT = /You are a title generator\. You output ONLY a thread title/;
