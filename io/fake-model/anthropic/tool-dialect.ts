/**
 * The fake's script says its tool calls in Claude Code's words (Read, Write, Bash,
 * AskUserQuestion). Another CLI that speaks the same Messages API offers its own tools: OpenCode
 * (1.17.19, 1.18.33) offers `read`, `write`, `edit`, `bash` and `question`, with camelCase inputs
 * (`filePath`, `oldString`) and `multiple` for `multiSelect`. A call is said in the words the
 * request offers, so one script (trigger words, the brief read, the queue) drives both; a request
 * that offers Claude Code's names gets the call unchanged. Pure.
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

/** Which dialect a request's offered tools speak: Claude Code's own names, or OpenCode's. */
export function dialectOf(tools: readonly string[]): 'claude' | 'opencode' {
  if (tools.includes('Read') || tools.includes('Bash')) return 'claude';
  return tools.includes('read') && tools.includes('bash') ? 'opencode' : 'claude';
}

/** `item` said in the dialect `tools` speak (a call the dialect has no word for is left as it is). */
export function inOfferedDialect(item: ScriptItem, tools: readonly string[]): ScriptItem {
  if (item.kind !== 'tool_use' || dialectOf(tools) === 'claude') return item;
  const rewrite = OPENCODE[item.name];
  if (!rewrite) return item;
  return { ...item, name: rewrite.name, input: rewrite.input(item.input) };
}

/** OpenCode's title request (its system prompt says so): it shows the reply as the session's title, word for word. */
export const OPENCODE_TITLE_PROMPT = /You are a title generator\. You output ONLY a thread title/;
