/**
 * The daemon's socket server: routes each request to its method — the method's parser reads the
 * raw params once (daemon/<family>/<family>-methods.ts), then its handler runs — and writes one response.
 * Handlers throw typed errors; they become wire errors here and exit codes at the CLI.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { unlinkSync, existsSync, chmodSync } from 'node:fs';
import { explainFsError } from '../io/fs/why-unwritable.ts';
import { lineSplitter, toWireError, type CallContext, type RawRequest, type ServedMethods, type WireObject } from '../contract/protocol.ts';
import { NotTheHandsError, NotThePersonError } from '../contract/errors.ts';
import { isOpenMethod, PERSON_ONLY_METHODS, PERSON_ONLY_PARAMS, type MethodName } from '../contract/methods.ts';
import { presentsAuthority } from '../io/fs/authority-key.ts';

export { toWireError, type CallContext, type Handler } from '../contract/protocol.ts';

/** A served method once its name has been checked: what it answers goes out as JSON, whatever its type. */
type Route = (raw: WireObject, ctx: CallContext) => Promise<unknown>;

/** A JSON object (not null, not an array): what params must be before any parser reads them. */
const isWireObject = (v: unknown): v is WireObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The longest request line the daemon reads (characters, so at least this many bytes). The
 * largest real request is a send's text or a hook payload, far below; a 300 MB line without a
 * newline grew the daemon to 300 MB (issue 25 #5).
 */
export const MAX_REQUEST_LINE = 1 << 20;

/** The command a person runs for a person-only method (the refusal names it). */
function personsCommand(method: string): string {
  const words: Record<string, string> = {
    shutdown: 'hand daemon stop',
    'notify.add': 'hand notify add …',
    'notify.remove': 'hand notify remove <id>',
    'usage.source': 'hand usage source <argv…>',
    'host.add': 'hand host add <name> <user>@<address>',
    'host.trust': 'hand host trust <name> --known-hosts <file>',
    'host.remove': 'hand host remove <name>',
    'project.host': 'hand project host <project> <host> <path>',
    annotate: 'hand annotate <id> <item> <text> (or write it on the review page)',
  };
  return words[method] ?? `hand ${method}`;
}

/** Who may call what: the key the person's faces present, and where it lives (for the refusal). */
export interface Authority {
  key: Buffer;
  keyPath: string;
}

export function startSocketServer(
  socketPath: string,
  methods: ServedMethods,
  log: (obj: Record<string, unknown>, msg: string) => void,
  authority: Authority,
): Promise<Server> {
  // A socket file left by a killed daemon blocks listen(); the home lock already proved no daemon owns it.
  if (existsSync(socketPath)) unlinkSync(socketPath);
  // Names are looked up in a Map: `__proto__`, `constructor` or `toString` are unknown methods,
  // never a function of Object.prototype called with a request.
  const table = new Map<string, Route>();
  for (const [name, served] of Object.entries(methods)) if (served) table.set(name, served);
  const server = createServer((sock: Socket) => {
    const aborter = new AbortController();
    sock.on('close', () => aborter.abort());
    sock.on('error', () => aborter.abort());
    const write = (obj: unknown) => {
      if (!sock.destroyed) sock.write(`${JSON.stringify(obj)}\n`);
    };
    const tooLarge = () => {
      const message = `request line over ${MAX_REQUEST_LINE} characters (1 MiB) without its end; the connection is closed`;
      log({ bound: MAX_REQUEST_LINE }, 'request too large');
      // the reply first, then the connection ends: nothing more of this peer is buffered
      if (!sock.destroyed) sock.write(`${JSON.stringify({ id: 0, ok: false, error: { code: 'request-too-large', message, exitCode: 2 } })}\n`, () => sock.destroy());
    };
    sock.on(
      'data',
      lineSplitter((line) => {
        let req: RawRequest;
        try {
          req = JSON.parse(line) as RawRequest;
        } catch {
          write({ id: 0, ok: false, error: { code: 'bad-request', message: 'request is not JSON', exitCode: 2 } });
          return;
        }
        // `null`, a number or an array parse as JSON but are no request: reading .method off null threw
        if (req === null || typeof req !== 'object' || Array.isArray(req)) {
          write({ id: 0, ok: false, error: { code: 'bad-request', message: 'request is not a JSON object {id, method, params}', exitCode: 2 } });
          return;
        }
        const id = typeof req.id === 'number' ? req.id : 0;
        const params = req.params === undefined ? {} : req.params;
        if (!isWireObject(params)) {
          write({ id, ok: false, error: { code: 'bad-request', message: 'params must be a JSON object', exitCode: 2 } });
          return;
        }
        // Before the method table: a request that is not the person's reaches no handler but the open ones.
        if (!isOpenMethod(req.method) && !presentsAuthority(authority.key, req.authority)) {
          const method = typeof req.method === 'string' ? req.method.slice(0, 80) : String(req.method);
          write({ id, ok: false, error: toWireError(new NotThePersonError(method, authority.keyPath)) });
          log({ method, code: 'not-the-person' }, 'request refused');
          return;
        }
        // The person's own settings are refused to the Hand (its MCP server and its marked shell).
        if (req.via === 'hand' && (PERSON_ONLY_METHODS as readonly unknown[]).includes(req.method)) {
          write({ id, ok: false, error: toWireError(new NotTheHandsError(String(req.method), personsCommand(String(req.method)))) });
          log({ method: req.method, code: 'not-the-hands' }, 'request refused');
          return;
        }
        const ownParams = req.via === 'hand' && typeof req.method === 'string' ? PERSON_ONLY_PARAMS[req.method as MethodName] : undefined;
        const own = ownParams?.params.find((k) => params[k] !== undefined);
        if (ownParams && own) {
          write({ id, ok: false, error: toWireError(new NotTheHandsError(`${String(req.method)} ${own}`, ownParams.command)) });
          log({ method: req.method, param: own, code: 'not-the-hands' }, 'request refused');
          return;
        }
        const handler = typeof req.method === 'string' ? table.get(req.method) : undefined;
        if (!handler) {
          write({ id: req.id, ok: false, error: { code: 'unknown-method', message: `unknown method ${JSON.stringify(req.method)}`, exitCode: 2 } });
          return;
        }
        const started = Date.now();
        // A handler that throws before its first await is a refusal like any other, never an uncaught
        // exception that leaves the caller without an answer.
        Promise.resolve()
          .then(() => handler(params, { progress: (p) => write({ id: req.id, progress: p }), signal: aborter.signal }))
          .then((result) => {
            write({ id: req.id, ok: true, result });
            log({ method: req.method, ms: Date.now() - started }, 'request');
          })
          .catch((err: unknown) => {
            // EROFS, EPERM, EACCES said by their cause and fix, not as an internal error (issue 43).
            const wire = toWireError(explainFsError(err));
            write({ id: req.id, ok: false, error: wire });
            log({ method: req.method, ms: Date.now() - started, code: wire.code, err: wire.message }, 'request failed');
          });
      }, MAX_REQUEST_LINE, tooLarge),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      chmodSync(socketPath, 0o600);
      resolve(server);
    });
  });
}
