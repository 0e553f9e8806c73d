// The CLI subset the double speaks: argv → one socket request. Syntax follows herdr's CLI
// reference (0.8.2): options take a value as `--opt value` or `--opt=value`, `--env` repeats,
// and `--` ends the options of `agent start` (the rest is the agent's argv).

export class UsageFailure extends Error {}

const READ_OPTIONS = { source: 'string', lines: 'int', format: 'string', ansi: 'bool', raw: 'bool' };

function readParams(targetKey) {
  return (pos, opt) => {
    const ansi = opt.ansi || opt.format === 'ansi';
    if (opt.format && opt.format !== 'text' && opt.format !== 'ansi') {
      throw new UsageFailure(`invalid value '${opt.format}' for '--format <FORMAT>'`);
    }
    return {
      [targetKey]: pos[0],
      source: opt.source ?? 'visible',
      ...(opt.lines !== undefined ? { lines: opt.lines } : {}),
      format: ansi ? 'ansi' : 'text',
      strip_ansi: !ansi,
    };
  };
}

function envMap(list = []) {
  const env = {};
  for (const pair of list) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageFailure(`invalid KEY=VALUE for '--env': ${pair}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** name → { method, positional [min, max], options, params(pos, opt, rest) }. */
export const COMMANDS = {
  'server stop': { method: 'server.stop', positional: [0, 0], params: () => ({}) },
  'workspace create': {
    method: 'workspace.create',
    positional: [0, 0],
    options: { cwd: 'string', label: 'string', env: 'multi', focus: 'bool', 'no-focus': 'bool' },
    params: (_p, o) => ({
      ...(o.cwd ? { cwd: o.cwd } : {}),
      ...(o.label ? { label: o.label } : {}),
      env: envMap(o.env),
      focus: Boolean(o.focus) && !o['no-focus'],
    }),
  },
  'workspace list': { method: 'workspace.list', positional: [0, 0], params: () => ({}) },
  'workspace get': { method: 'workspace.get', positional: [1, 1], params: (p) => ({ workspace_id: p[0] }) },
  'workspace close': { method: 'workspace.close', positional: [1, 1], params: (p) => ({ workspace_id: p[0] }) },
  'pane list': {
    method: 'pane.list',
    positional: [0, 0],
    options: { workspace: 'string' },
    params: (_p, o) => (o.workspace ? { workspace_id: o.workspace } : {}),
  },
  'pane get': { method: 'pane.get', positional: [1, 1], params: (p) => ({ pane_id: p[0] }) },
  'pane read': { method: 'pane.read', positional: [1, 1], options: READ_OPTIONS, rawText: true, params: readParams('pane_id') },
  'pane send-text': { method: 'pane.send_text', positional: [2, 2], params: (p) => ({ pane_id: p[0], text: p[1] }) },
  'pane send-keys': { method: 'pane.send_keys', positional: [2, Infinity], params: (p) => ({ pane_id: p[0], keys: p.slice(1) }) },
  'pane run': {
    method: 'pane.send_input',
    positional: [2, Infinity],
    params: (p) => ({ pane_id: p[0], text: p.slice(1).join(' '), keys: ['enter'] }),
  },
  'pane rename': {
    method: 'pane.rename',
    positional: [1, 2],
    options: { clear: 'bool' },
    // The same param name as the server's (see renameParam in api.mjs); kept here so this entry
    // stays free of the server's imports.
    params: (p, o) => (o.clear ? { pane_id: p[0] } : { pane_id: p[0], [process.env.HERDR_DOUBLE_RENAME_PARAM || 'label']: p[1] }),
  },
  'pane close': { method: 'pane.close', positional: [1, 1], params: (p) => ({ pane_id: p[0] }) },
  'agent list': { method: 'agent.list', positional: [0, 0], params: () => ({}) },
  'agent get': { method: 'agent.get', positional: [1, 1], params: (p) => ({ target: p[0] }) },
  'agent read': { method: 'agent.read', positional: [1, 1], options: READ_OPTIONS, rawText: true, params: readParams('target') },
  'agent send-keys': { method: 'agent.send_keys', positional: [2, Infinity], params: (p) => ({ target: p[0], keys: p.slice(1) }) },
  'agent start': {
    method: 'agent.start',
    positional: [1, 1],
    options: { kind: 'string', pane: 'string', timeout: 'int' },
    acceptsRest: true,
    params: (p, o, rest) => {
      if (!o.kind) throw new UsageFailure("the following required arguments were not provided: --kind <KIND>");
      if (!o.pane) throw new UsageFailure("the following required arguments were not provided: --pane <PANE>");
      return {
        name: p[0],
        kind: o.kind,
        pane_id: o.pane,
        args: rest,
        ...(o.timeout !== undefined ? { timeout_ms: o.timeout } : {}),
      };
    },
  },
  'terminal session observe': {
    method: 'terminal.observe',
    positional: [1, 1],
    options: { cols: 'int', rows: 'int' },
    stream: true,
    params: (p) => ({ target: p[0] }),
  },
};

const NAMES = Object.keys(COMMANDS).sort((a, b) => b.split(' ').length - a.split(' ').length);

export function parseCommand(argv) {
  const name = NAMES.find((n) => n.split(' ').every((word, i) => argv[i] === word));
  if (!name) throw new UsageFailure(`unrecognized subcommand '${argv.slice(0, 2).join(' ')}'`);
  const spec = COMMANDS[name];
  const words = argv.slice(name.split(' ').length);
  const pos = [];
  const opt = {};
  let rest = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') {
      if (!spec.acceptsRest) throw new UsageFailure("unexpected argument '--' found");
      rest = words.slice(i + 1);
      break;
    }
    if (word.startsWith('--') && word.length > 2) {
      const eq = word.indexOf('=');
      const key = word.slice(2, eq > 0 ? eq : undefined);
      const kind = spec.options?.[key];
      if (!kind) throw new UsageFailure(`unexpected argument '--${key}' found`);
      if (kind === 'bool') {
        opt[key] = true;
        continue;
      }
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if (value === undefined) throw new UsageFailure(`a value is required for '--${key}'`);
      if (kind === 'int') {
        if (!/^\d+$/.test(value)) throw new UsageFailure(`invalid value '${value}' for '--${key}'`);
        opt[key] = Number(value);
      } else if (kind === 'multi') {
        (opt[key] ??= []).push(value);
      } else {
        opt[key] = value;
      }
      continue;
    }
    pos.push(word);
  }
  const [min, max] = spec.positional;
  if (pos.length < min) throw new UsageFailure(`missing required argument for '${name}'`);
  if (pos.length > max) throw new UsageFailure(`unexpected argument '${pos[max]}' found`);
  return { name, params: spec.params(pos, opt, rest) };
}
