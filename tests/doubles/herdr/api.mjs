// Socket API methods the double serves (dot names and param shapes from reference §1.8).
// Each handler returns a `result` object or throws { code, message }.
import { startAgent } from './agent-start.mjs';
import { encodeKeys } from './keys.mjs';
import { readPane } from './screen.mjs';

// Only events the double really emits; herdr accepts more (tab.*, layout.updated, …).
const SUBSCRIBABLE = new Set([
  'pane.agent_status_changed', 'pane.created', 'pane.updated', 'pane.closed', 'pane.exited', 'pane.agent_detected',
  'workspace.closed',
]);

const need = (params, key) => {
  if (typeof params?.[key] !== 'string' || params[key] === '') throw { code: 'invalid_params', message: `missing ${key}` };
  return params[key];
};

function read(pane, params, { agent }) {
  const source = params.source ?? 'visible';
  if (agent && source.startsWith('recent') && pane.term.buffer.active.type === 'alternate' && !['idle', 'done'].includes(pane.status())) {
    throw { code: 'agent_not_idle', message: `agent is ${pane.status()}; read --source visible or detection instead` };
  }
  const format = params.format === 'ansi' || params.strip_ansi === false ? 'ansi' : 'text';
  const text = readPane(pane.term, { source, lines: params.lines, format });
  return {
    type: 'pane_read',
    read: { pane_id: pane.pane_id, workspace_id: pane.workspace_id, tab_id: pane.tab_id, source, format, text, revision: pane.revision, truncated: false },
  };
}

/** Bracketed paste only when the application enabled it (mode 2004), as herdr does. */
function pasteText(pane, text) {
  return pane.term.modes.bracketedPasteMode ? `\x1b[200~${text}\x1b[201~` : text;
}

/**
 * The param `pane.rename` takes the label in. The reference lists `pane.rename` without its
 * params; `label` is the double's reading. Test facility: HERDR_DOUBLE_RENAME_PARAM=<name> plays a
 * herdr that names it otherwise (its own CLI follows, as herdr's would).
 */
export const renameParam = () => process.env.HERDR_DOUBLE_RENAME_PARAM || 'label';

export function methods(herd, { stop }) {
  return {
    ping: () => ({ type: 'pong', version: '0.8.2+double', protocol: 20, capabilities: { live_handoff: false, detached_server_daemon: true } }),
    'server.stop': () => {
      setImmediate(stop);
      return { type: 'ok' };
    },
    'workspace.create': (p) => herd.createWorkspace(p ?? {}),
    'workspace.list': () => ({ type: 'workspace_list', workspaces: [...herd.workspaces.values()].map((w) => herd.workspaceInfo(w)) }),
    'workspace.get': (p) => ({ type: 'workspace_info', workspace: herd.workspaceInfo(herd.workspace(need(p, 'workspace_id'))) }),
    'workspace.close': async (p) => {
      const w = herd.workspace(need(p, 'workspace_id'));
      await Promise.all([...w.panes].map((id) => herd.closePane(herd.pane(id))));
      return { type: 'ok' };
    },
    'pane.list': (p) => {
      const panes = [...herd.panes.values()].filter((x) => !p?.workspace_id || x.workspace_id === p.workspace_id);
      if (p?.workspace_id) herd.workspace(p.workspace_id);
      return { type: 'pane_list', panes: panes.map((x) => x.info()) };
    },
    'pane.get': (p) => ({ type: 'pane_info', pane: herd.pane(need(p, 'pane_id')).info() }),
    'pane.rename': (p) => {
      const pane = herd.pane(need(p, 'pane_id'));
      // Unknown fields are tolerated (§1.8): a label sent under another name is simply not set.
      pane.label = p[renameParam()] || undefined;
      herd.emit('pane.updated', { type: 'pane_updated', pane: pane.info() }, pane);
      return { type: 'pane_info', pane: pane.info() };
    },
    'pane.read': (p) => read(herd.pane(need(p, 'pane_id')), p, { agent: false }),
    'pane.send_text': (p) => {
      const pane = herd.pane(need(p, 'pane_id'));
      if (typeof p.text !== 'string') throw { code: 'invalid_params', message: 'missing text' };
      pane.write(p.text);
      return { type: 'ok' };
    },
    'pane.send_keys': (p) => {
      const pane = herd.pane(need(p, 'pane_id'));
      pane.write(encodeKeys(p.keys, pane.term.modes.applicationCursorKeysMode));
      return { type: 'ok' };
    },
    'pane.send_input': (p) => {
      const pane = herd.pane(need(p, 'pane_id'));
      const keys = p.keys?.length ? encodeKeys(p.keys, pane.term.modes.applicationCursorKeysMode) : '';
      pane.write(`${p.text ? pasteText(pane, p.text) : ''}${keys}`);
      return { type: 'ok' };
    },
    'pane.close': async (p) => {
      await herd.closePane(herd.pane(need(p, 'pane_id')));
      return { type: 'ok' };
    },
    'agent.list': () => ({ type: 'agent_list', agents: [...herd.panes.values()].filter((x) => x.agent).map((x) => x.agentInfo()) }),
    'agent.get': (p) => ({ type: 'agent_info', agent: herd.agentPane(need(p, 'target')).agentInfo() }),
    'agent.read': (p) => read(herd.agentPane(need(p, 'target')), p, { agent: true }),
    'agent.send_keys': (p) => {
      const pane = herd.agentPane(need(p, 'target'));
      pane.write(encodeKeys(p.keys, pane.term.modes.applicationCursorKeysMode));
      return { type: 'agent_info', agent: pane.agentInfo() };
    },
    'agent.start': (p) => startAgent(herd, p ?? {}),
  };
}

/** Validates an events.subscribe request; returns the subscription list. */
export function subscriptions(params) {
  const list = params?.subscriptions;
  if (!Array.isArray(list) || list.length === 0) throw { code: 'invalid_params', message: 'subscriptions must be a non-empty list' };
  for (const s of list) {
    if (!SUBSCRIBABLE.has(s?.type)) throw { code: 'invalid_params', message: `unknown subscription type ${JSON.stringify(s?.type)}` };
    if (s.type === 'pane.agent_status_changed' && !s.pane_id) throw { code: 'invalid_params', message: 'pane.agent_status_changed needs pane_id' };
  }
  return list;
}
