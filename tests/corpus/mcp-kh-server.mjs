#!/usr/bin/env node
// A tiny MCP server over stdio (newline-delimited JSON-RPC) with one tool, `ping`, so that a
// capture run can make Claude Code ask for an MCP tool permission. Test plumbing only.
import { createInterface } from 'node:readline';

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
const TOOL = {
  name: 'ping',
  description: 'Answers pong. Used by the kingshand capture corpus.',
  inputSchema: { type: 'object', properties: { note: { type: 'string' } }, additionalProperties: false },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  if (req.id === undefined) return; // a notification
  if (req.method === 'initialize') {
    send({ id: req.id, result: { protocolVersion: req.params?.protocolVersion ?? '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'kh', version: '1.0.0' } } });
  } else if (req.method === 'tools/list') {
    send({ id: req.id, result: { tools: [TOOL] } });
  } else if (req.method === 'tools/call') {
    send({ id: req.id, result: { content: [{ type: 'text', text: 'pong' }] } });
  } else if (req.method === 'ping') {
    send({ id: req.id, result: {} });
  } else {
    send({ id: req.id, error: { code: -32601, message: `no method ${req.method}` } });
  }
});
