/** Reads a fake-anthropic SSE response back into events, for tests of the fake itself. */

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
  /** ms since the request was sent. */
  at: number;
}

/** Events also land in `events` as they arrive, so a caller can see them while a stream is open. */
export async function readSse(res: Response, startedAt: number, events: SseEvent[] = []): Promise<SseEvent[]> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '{}';
      events.push({ event, data: JSON.parse(data) as Record<string, unknown>, at: Date.now() - startedAt });
    }
  }
  return events;
}

/** The text and tool calls an event list adds up to, the way a client assembles them. */
export function assemble(events: SseEvent[]): { text: string; toolUses: { name: string; input: unknown }[]; stopReason: unknown } {
  let text = '';
  const toolUses: { name: string; input: unknown }[] = [];
  const json = new Map<number, { name: string; partial: string }>();
  let stopReason: unknown = null;
  for (const { data } of events) {
    const index = data.index as number;
    const block = data.content_block as Record<string, unknown> | undefined;
    const delta = data.delta as Record<string, unknown> | undefined;
    if (data.type === 'content_block_start' && block?.type === 'tool_use') json.set(index, { name: block.name as string, partial: '' });
    if (data.type === 'content_block_delta' && delta?.type === 'text_delta') text += delta.text as string;
    if (data.type === 'content_block_delta' && delta?.type === 'input_json_delta') json.get(index)!.partial += delta.partial_json as string;
    if (data.type === 'content_block_stop' && json.has(index)) {
      const t = json.get(index)!;
      toolUses.push({ name: t.name, input: JSON.parse(t.partial) });
    }
    if (data.type === 'message_delta') stopReason = delta?.stop_reason;
  }
  return { text, toolUses, stopReason };
}
