/**
 * The MCP stdio transport, with bounds and replies the SDK's StdioServerTransport lacks: on a
 * message over 10 MiB it closed the transport and `hand mcp` exited 0 saying nothing (the Hand
 * lost every tool), and malformed JSON-RPC got no reply at all (issue 25 #5). Here one bad line
 * is answered with a JSON-RPC error (-32700 parse error, -32600 invalid request), said on stderr,
 * and the server goes on serving the next line.
 */
import process from 'node:process';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The SDK's own bound (STDIO_DEFAULT_MAX_BUFFER_SIZE): a message longer than this is refused. */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line that went over the bound: dropped up to its newline. */
  private discarding = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
    private readonly maxBytes = MAX_MCP_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (let nl = rest.indexOf(0x0a); nl >= 0; nl = rest.indexOf(0x0a)) {
      const head = rest.subarray(0, nl);
      rest = rest.subarray(nl + 1);
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      if (this.pendingBytes + head.length > this.maxBytes) {
        this.tooLarge();
        this.discarding = false;
        continue;
      }
      const line = Buffer.concat([...this.pending, head]).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      this.pendingBytes = 0;
      if (line.trim()) this.handleLine(line);
    }
    if (this.discarding || rest.length === 0) return;
    if (this.pendingBytes + rest.length > this.maxBytes) {
      // never buffered past the bound: the rest of this line is dropped as it arrives
      this.tooLarge();
      this.discarding = true;
      return;
    }
    this.pending.push(rest);
    this.pendingBytes += rest.length;
  };

  private tooLarge(): void {
    this.pending = [];
    this.pendingBytes = 0;
    const message = `message over ${this.maxBytes} bytes (10 MiB) refused; hand mcp goes on serving`;
    this.say(message);
    this.reply(INVALID_REQUEST, message);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.say(`a line that is not JSON: ${(err as Error).message}`);
      return this.reply(PARSE_ERROR, `Parse error: ${(err as Error).message}`);
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value && typeof value === 'object' && 'id' in value && (typeof value.id === 'string' || typeof value.id === 'number') ? value.id : null;
      this.say('a message that is not JSON-RPC 2.0');
      return this.reply(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message', id);
    }
    this.onmessage?.(parsed.data);
  }

  private say(what: string): void {
    this.stderr.write(`hand mcp: ${what}\n`);
  }

  private reply(code: number, message: string, id: string | number | null = null): void {
    // JSON-RPC 2.0 §5: an error whose request id could not be read carries id null
    this.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const json = `${JSON.stringify(message)}\n`;
    if (!this.stdout.write(json)) await new Promise<void>((r) => this.stdout.once('drain', () => r()));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.pending = [];
    this.onclose?.();
  }
}
