/**
 * `hand mcp` over stdio through the official SDK's client, as the Hand's Claude Code session
 * runs it, and one tool call read back as the CLI's --json would print it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CliWorld } from '../cli/cli-harness.ts';
import { HAND_BIN } from './hand-process.ts';

export async function connectMcp(w: CliWorld, ws: string): Promise<Client> {
  const client = new Client({ name: 'kh-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [HAND_BIN, '--home', w.home, 'mcp', '--workspace', ws], env: w.env, stderr: 'pipe' }));
  return client;
}

/** Ends a Hand's MCP test: the client first (its server answers through the world), then the world. */
export async function closeMcpWorld(client: Client | undefined, w: CliWorld | undefined): Promise<void> {
  await client?.close();
  await w?.cleanup();
}

export interface ToolAnswer {
  isError: boolean;
  text: string;
  /** The result as --json prints it, or for an error the {error} object. */
  value: any;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}, timeoutMs = 90_000): Promise<ToolAnswer> {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };
  const text = r.content[0]!.text;
  let value: any = null;
  try {
    value = JSON.parse(text);
  } catch {
    value = r.structuredContent ?? null;
  }
  if (r.isError) value = r.structuredContent;
  return { isError: r.isError === true, text, value };
}
