#!/usr/bin/env node
// A test double of the herdr CLI (https://herdr.dev), written from the research notes in the
// project's reference material (herdr 0.8.2, protocol 20), not from kingshand's adapter.
// `herdr server` runs a real server (node-pty + @xterm/headless) on a Unix socket; every other
// command is a short-lived client that sends one newline-delimited JSON request to it, exactly
// as the real CLI does. What is implemented and what is simplified: docs/herdr-double.md.
//
// This entry stays light (no node-pty import) because every CLI call is a fresh process.
import { appendFileSync } from 'node:fs';
import { COMMANDS, UsageFailure, parseCommand } from './cli-commands.mjs';
import { resolveSocketPath } from './socket-path.mjs';
import { connectOnce, streamLines } from './wire-client.mjs';
import { printStatus } from './status.mjs';

const PROTOCOL = 20;

function usage(message) {
  process.stderr.write(`error: ${message}\n\nrun 'herdr --help' for usage\n`);
  process.exit(2);
}

function printError(id, code, message) {
  process.stderr.write(`${JSON.stringify({ error: { code, message }, id })}\n`);
  process.exit(1);
}

async function main(argv) {
  if (process.env.HERDR_DOUBLE_ARGV_LOG) {
    // Test facility: lets a test prove which command lines a client composed.
    appendFileSync(process.env.HERDR_DOUBLE_ARGV_LOG, `${JSON.stringify(argv)}\n`);
  }
  let session;
  if (argv[0] === '--session') {
    session = argv[1];
    if (!session) usage("a value is required for '--session <NAME>'");
    argv = argv.slice(2);
  }
  const socketPath = resolveSocketPath(process.env, session);

  if (argv.length === 0) usage('the interactive client is not part of the double; use `herdr server`');
  if (argv[0] === 'server' && argv.length === 1) {
    const { runServer } = await import('./server.mjs');
    return runServer(socketPath);
  }
  if (argv[0] === 'status') return printStatus(argv.slice(1), socketPath, PROTOCOL);

  if (argv[0] === 'terminal' && process.env.HERDR_DOUBLE_WITHOUT_OBSERVE === '1') {
    // Test facility: behave like a herdr build that predates `terminal session observe`.
    usage("unrecognized subcommand 'terminal'");
  }
  let command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (err instanceof UsageFailure) usage(err.message);
    throw err;
  }
  const id = `cli:${command.name.replace(/ /g, ':')}`;
  const spec = COMMANDS[command.name];

  if (spec.stream) {
    // `terminal session observe`: NDJSON frames until the pane or the server goes away.
    const ok = await streamLines(socketPath, { id, method: spec.method, params: command.params }, (line) => {
      process.stdout.write(`${line}\n`);
    });
    if (!ok.connected) printError(id, 'server_not_running', notRunning(socketPath));
    if (ok.error) printError(id, ok.error.code, ok.error.message);
    return;
  }

  const reply = await connectOnce(socketPath, { id, method: spec.method, params: command.params });
  if (!reply) printError(id, 'server_not_running', notRunning(socketPath));
  if (reply.error) printError(id, reply.error.code, reply.error.message);
  if (spec.rawText) {
    // `pane read` / `agent read` print the text itself, not the JSON envelope.
    process.stdout.write(reply.result.read.text);
    return;
  }
  process.stdout.write(`${JSON.stringify({ id, result: reply.result })}\n`);
}

function notRunning(socketPath) {
  return `no herdr server is running at ${socketPath}; run \`herdr\` to start or attach it`;
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${JSON.stringify({ error: { code: 'internal_error', message: String(err?.message ?? err) }, id: 'cli' })}\n`);
  process.exit(1);
});
