// The server's model: workspaces (one tab each in the double), panes, agent names, the
// server-wide state_change_seq, and event subscribers. IDs are shaped like herdr's
// (w1, w1:t1, w1:p1, term_1) and never reused.
import { Pane } from './pane.mjs';

export class Herd {
  constructor({ cols, rows, socketPath, binPath }) {
    Object.assign(this, { cols, rows, socketPath, binPath });
    this.workspaces = new Map();
    this.panes = new Map();
    this.names = new Map(); // agent name → pane_id
    this.subscribers = new Set(); // { socket, subscriptions }
    this.counters = { workspace: 0, terminal: 0, seq: 0 };
  }

  nextSeq() {
    return ++this.counters.seq;
  }

  createWorkspace({ cwd, label, env = {}, focus = false }) {
    const n = ++this.counters.workspace;
    const workspace_id = `w${n}`;
    const tab_id = `${workspace_id}:t1`;
    const pane_id = `${workspace_id}:p1`;
    const terminal_id = `term_${++this.counters.terminal}`;
    const paneEnv = {
      ...process.env,
      ...env,
      HERDR_ENV: '1',
      HERDR_SOCKET_PATH: this.socketPath,
      HERDR_BIN_PATH: this.binPath,
      HERDR_WORKSPACE_ID: workspace_id,
      HERDR_TAB_ID: tab_id,
      HERDR_PANE_ID: pane_id,
    };
    delete paneEnv.ENV; // keep the shell from sourcing a startup file
    if (!paneEnv.TERM) paneEnv.TERM = 'xterm-256color';
    const workspace = { workspace_id, number: n, label: label ?? `workspace ${n}`, focused: Boolean(focus), tab_id, panes: new Set([pane_id]) };
    this.workspaces.set(workspace_id, workspace);
    const pane = new Pane(this, { pane_id, terminal_id, workspace_id, tab_id }, { cwd: cwd ?? process.cwd(), env: paneEnv, cols: this.cols, rows: this.rows });
    this.panes.set(pane_id, pane);
    this.emit('pane.created', { type: 'pane_created', pane: pane.info() }, pane);
    return {
      type: 'workspace_created',
      workspace: this.workspaceInfo(workspace),
      tab: this.tabInfo(workspace),
      root_pane: pane.info(),
    };
  }

  workspaceInfo(w) {
    const panes = [...w.panes].map((id) => this.panes.get(id)).filter(Boolean);
    const order = { blocked: 4, done: 3, working: 2, idle: 1, unknown: 0 };
    const rollup = panes.map((p) => p.status()).sort((a, b) => order[b] - order[a])[0] ?? 'unknown';
    return {
      workspace_id: w.workspace_id, number: w.number, label: w.label, focused: w.focused,
      pane_count: panes.length, tab_count: 1, active_tab_id: w.tab_id, agent_status: rollup, tokens: {},
    };
  }

  tabInfo(w) {
    const info = this.workspaceInfo(w);
    return { tab_id: w.tab_id, workspace_id: w.workspace_id, number: 1, label: '1', focused: w.focused, pane_count: info.pane_count, agent_status: info.agent_status };
  }

  workspace(id) {
    const w = this.workspaces.get(id);
    if (!w) throw { code: 'workspace_not_found', message: `workspace ${id} not found` };
    return w;
  }

  pane(id) {
    const p = this.panes.get(id);
    if (!p) throw { code: 'pane_not_found', message: `pane ${id} not found` };
    return p;
  }

  /** Target = a live agent name, or the id of a pane hosting an agent. */
  agentPane(target) {
    const byName = this.names.get(target);
    const pane = this.panes.get(byName ?? target);
    if (!pane || !pane.agent) throw { code: 'agent_not_found', message: `agent ${target} not found` };
    return pane;
  }

  async closePane(pane) {
    if (!this.panes.has(pane.pane_id)) return;
    this.panes.delete(pane.pane_id);
    if (pane.agent?.name) this.names.delete(pane.agent.name);
    const closing = pane.kill();
    this.emit('pane.closed', { type: 'pane_closed', pane_id: pane.pane_id, workspace_id: pane.workspace_id }, pane);
    const w = this.workspaces.get(pane.workspace_id);
    if (w) {
      w.panes.delete(pane.pane_id);
      if (w.panes.size === 0) {
        this.workspaces.delete(w.workspace_id);
        this.emit('workspace.closed', { type: 'workspace_closed', workspace_id: w.workspace_id }, null);
      }
    }
    await closing;
  }

  /** The pane's shell ended: pane.exited, then the pane (and an emptied workspace) close. */
  paneExited(pane) {
    if (!this.panes.has(pane.pane_id)) return;
    this.emit('pane.exited', { type: 'pane_exited', pane_id: pane.pane_id, workspace_id: pane.workspace_id }, pane);
    void this.closePane(pane);
  }

  tick() {
    const now = Date.now();
    for (const pane of this.panes.values()) pane.scan(now);
  }

  /** Pushes `{"event":…,"data":…}` to every subscription that matches. */
  emit(event, data, pane) {
    const line = `${JSON.stringify({ event, data })}\n`;
    for (const sub of this.subscribers) {
      const wanted = sub.subscriptions.some((s) => {
        if (s.type !== event) return false;
        if (s.pane_id && s.pane_id !== pane?.pane_id) return false;
        if (s.agent_status && s.agent_status !== data.agent_status) return false;
        return true;
      });
      if (wanted) sub.socket.write(line);
    }
  }

  async stopAll() {
    await Promise.all([...this.panes.values()].map((p) => this.closePane(p)));
  }
}
