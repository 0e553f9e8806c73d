// `herdr status [server|client] [--json]`: never fails on "not running" (exit 0), as documented.
import { connectOnce } from './wire-client.mjs';

export async function printStatus(args, socketPath, protocol) {
  const json = args.includes('--json');
  const rest = args.filter((a) => a !== '--json');
  const which = rest[0];
  if (rest.length > 1 || (which && which !== 'server' && which !== 'client')) {
    process.stderr.write(`error: unexpected argument '${rest[rest.length - 1]}' found\n\nrun 'herdr --help' for usage\n`);
    process.exit(2);
  }
  const pong = await connectOnce(socketPath, { id: 'cli:status', method: 'ping', params: {} });
  const server = pong?.result
    ? {
        status: 'running',
        running: true,
        version: pong.result.version,
        protocol: pong.result.protocol,
        capabilities: pong.result.capabilities,
        compatible: pong.result.protocol === protocol,
        socket: socketPath,
        session: 'default',
        restart_needed: false,
      }
    : { status: 'not_running', running: false, socket: socketPath, session: 'default' };
  const client = { version: '0.8.2+double', protocol };
  const payload = which === 'server' ? server : which === 'client' ? client : { client, server };
  if (json) {
    process.stdout.write(`${JSON.stringify(payload)}\n`);
    return;
  }
  // The default output is YAML-like text; for the server, `status: not running` when down.
  const lines = [];
  const emit = (name, obj) => {
    lines.push(`${name}:`);
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'object') continue;
      lines.push(`  ${k}: ${k === 'status' && v === 'not_running' ? 'not running' : v}`);
    }
  };
  if (which !== 'client') emit('server', server);
  if (which !== 'server') emit('client', client);
  process.stdout.write(`${lines.join('\n')}\n`);
}
