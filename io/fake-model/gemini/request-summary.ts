/**
 * What the fake Gemini API keeps of each generateContent request: enough to pick a scripted
 * reply and for tests to assert on what Gemini CLI sent, without storing whole prompts.
 * Request shape (Gemini CLI 0.61.0, read off the wire): `contents` of `{role, parts}` where a
 * part is `{text}`, `{functionCall}` (model) or `{functionResponse: {name, id, response}}` (user);
 * `tools[].functionDeclarations[]` on agent-loop requests only.
 */

export interface FunctionResponseSummary {
  name: string;
  /** The response's text: `output` (or `error`) when a string, the JSON otherwise. */
  content: string;
  isError: boolean;
}

export interface GeminiRequestSummary {
  /** From the URL: `models/<model>:<method>`. */
  model: string;
  stream: boolean;
  /** Declared function names (empty for side requests such as the model router). */
  tools: string[];
  /** The last text part of the last user content: the person's words, or null after a tool. */
  lastPromptText: string | null;
  /** functionResponse parts of the last user content: non-empty means "continue after a tool". */
  functionResponses: FunctionResponseSummary[];
  /** Names of the properties a JSON reply must have (`generationConfig.responseJsonSchema`). */
  jsonKeys: string[];
  contentCount: number;
}

/**
 * main: the agent loop (it declares tools). router: the model router's complexity classifier
 * (a JSON reply with `complexity_score`). side: anything else; it never takes a scripted reply.
 */
export type GeminiRequestKind = 'main' | 'router' | 'side';

interface Part {
  text?: unknown;
  functionResponse?: { name?: unknown; response?: unknown };
}
interface Content {
  role?: unknown;
  parts?: unknown;
}

function partsOf(content: Content | undefined): Part[] {
  return Array.isArray(content?.parts) ? (content.parts as Part[]) : [];
}

function responseText(response: unknown): { content: string; isError: boolean } {
  if (response !== null && typeof response === 'object') {
    const r = response as Record<string, unknown>;
    if (typeof r.error === 'string') return { content: r.error, isError: true };
    if (typeof r.output === 'string') return { content: r.output, isError: false };
  }
  return { content: JSON.stringify(response ?? null), isError: false };
}

function schemaKeys(config: unknown): string[] {
  if (config === null || typeof config !== 'object') return [];
  const schema = (config as Record<string, unknown>).responseJsonSchema ?? (config as Record<string, unknown>).responseSchema;
  if (schema === null || typeof schema !== 'object') return [];
  const props = (schema as Record<string, unknown>).properties;
  return props !== null && typeof props === 'object' ? Object.keys(props) : [];
}

export function summariseGeminiRequest(path: string, body: unknown): GeminiRequestSummary {
  const m = /\/models\/([^/:]+):(\w+)$/.exec(path);
  const b = (body ?? {}) as Record<string, unknown>;
  const contents = Array.isArray(b.contents) ? (b.contents as Content[]) : [];
  const last = contents[contents.length - 1];
  const parts = last?.role === 'user' ? partsOf(last) : [];
  const texts = parts.filter((p) => typeof p.text === 'string').map((p) => p.text as string);
  const functionResponses = parts
    .filter((p) => p.functionResponse !== undefined)
    .map((p) => ({ name: String(p.functionResponse!.name ?? ''), ...responseText(p.functionResponse!.response) }));
  const tools: string[] = [];
  for (const t of Array.isArray(b.tools) ? (b.tools as Record<string, unknown>[]) : []) {
    for (const f of Array.isArray(t.functionDeclarations) ? (t.functionDeclarations as Record<string, unknown>[]) : []) tools.push(String(f.name));
  }
  return {
    model: m?.[1] ?? '',
    stream: m?.[2] === 'streamGenerateContent',
    tools,
    lastPromptText: functionResponses.length === 0 && texts.length > 0 ? texts[texts.length - 1]! : null,
    functionResponses,
    jsonKeys: schemaKeys(b.generationConfig),
    contentCount: contents.length,
  };
}

export function classifyGeminiRequest(s: GeminiRequestSummary): GeminiRequestKind {
  if (s.tools.length > 0) return 'main';
  if (s.jsonKeys.includes('complexity_score')) return 'router';
  return 'side';
}
