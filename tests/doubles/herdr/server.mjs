// `herdr server`: the headless server in the foreground, serving newline-delimited JSON on a
// Unix socket. Refuses to start when the socket is already served (exit 1, as documented).
import { appendFileSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { methods, subscriptions } from './api.mjs';
import { Herd } from './herd.mjs';
import { configDir } from './socket-path.mjs';
import { connectOnce, onLines } from './wire-client.mjs';

const TICK_MS = 300;

/** `[server] headless_cols / headless_rows` from the config file (a tiny TOML subset). */
function readConfig(env) {
  const path = env.HERDR_CONFIG_PATH || join(configDir(env), 'config.toml');
  const config = { cols: 120, rows: 40 };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return config;
  }
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) section = header[1].trim();
    const kv = /^([A-Za-z_]+)\s*=\s*(\d+)$/.exec(line);
    if (kv && section === 'server' && kv[1] === 'headless_cols') config.cols = Number(kv[2]);
    if (kv && section === 'server' && kv[1] === 'headless_rows') config.rows = Number(kv[2]);
  }
  return config;
}

export async function runServer(socketPath) {
  if (await connectOnce(socketPath, { id: 'probe', method: 'ping', params: {} })) {
    process.stderr.write(`error: herdr server is already running\napi socket: ${socketPath}\n`);
    process.exit(1);
  }
  mkdirSync(dirname(socketPath), { recursive: true });
  try {
    unlinkSync(socketPath); // a stale socket nobody answers on
  } catch {
    // none
  }
  const { cols, rows } = readConfig(process.env);
  const herd = new Herd({ cols, rows, socketPath, binPath: process.argv[1] });
  let stopping = false;
  const server = createServer();
  const timer = setInterval(() => herd.tick(), TICK_MS);

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    server.close();
    await herd.stopAll();
    for (const sub of herd.subscribers) sub.socket.end();
    try {
      unlinkSync(socketPath);
    } catch {
      // already gone
    }
    process.exit(0);
  };
  const table = methods(herd, { stop });

  server.on('connection', (socket) => {
    socket.on('error', () => {});
    onLines(socket, (line) => {
      if (line.trim()) void handle(socket, line);
    });
  });

  async function handle(socket, line) {
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      socket.write(`${JSON.stringify({ id: null, error: { code: 'invalid_request', message: 'request is not valid JSON' } })}\n`);
      return;
    }
    const { id = null, method, params } = request;
    if (process.env.HERDR_DOUBLE_REQUEST_LOG) {
      // Test facility: lets a test prove which socket requests a client composed (the CLI's own
      // requests carry ids starting `cli:`).
      appendFileSync(process.env.HERDR_DOUBLE_REQUEST_LOG, `${JSON.stringify({ id, method, params })}\n`);
    }
    const reply = (body) => socket.writable && socket.write(`${JSON.stringify({ id, ...body })}\n`);
    try {
      if (method === 'events.subscribe') {
        const subs = subscriptions(params);
        reply({ result: { type: 'subscription_started' } });
        const entry = { socket, subscriptions: subs };
        herd.subscribers.add(entry);
        socket.on('close', () => herd.subscribers.delete(entry));
        return;
      }
      if (method === 'terminal.observe') {
        // The double's wire for `herdr terminal session observe <target>` (pane or terminal id).
        const target = params?.target;
        const pane = [...herd.panes.values()].find((p) => p.pane_id === target || p.terminal_id === target);
        if (!pane) throw { code: 'pane_not_found', message: `pane ${target} not found` };
        reply({ result: { type: 'observe_started' } });
        pane.observe(socket);
        return;
      }
      const fn = table[method];
      if (!fn) throw { code: 'invalid_request', message: `unknown method ${JSON.stringify(method)}` };
      reply({ result: await fn(params ?? {}) });
    } catch (err) {
      if (err && typeof err.code === 'string' && typeof err.message === 'string' && !(err instanceof Error)) reply({ error: err });
      else reply({ error: { code: 'internal_error', message: String(err?.message ?? err) } });
    }
  }

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => void stop());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
}
