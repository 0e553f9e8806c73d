// One pane: a real pty running a shell (herdr panes start a shell; programs are typed into it),
// a headless xterm that renders it, observers of its byte stream, and the agent that owns its
// foreground, if any. State detection follows reference §2.1: identify → 3 s startup grace as
// `unknown` → classify the detection snapshot on a 300 ms tick → publish changes with a new
// server-wide state_change_seq. The working→idle hysteresis hold is not reproduced.
import { createRequire } from 'node:module';
import { foregroundGroup, groupHasLiveMember, identify } from './identify.mjs';
import { classify } from './manifest.mjs';
import { detectionRows, fullFrame } from './screen.mjs';

const require = createRequire(import.meta.url);
const pty = require('node-pty');
const { Terminal } = require('@xterm/headless');
const { Unicode11Addon } = require('@xterm/addon-unicode11');

export const STARTUP_GRACE_MS = 3000;

export class Pane {
  constructor(herd, ids, { cwd, env, cols, rows }) {
    Object.assign(this, ids); // pane_id, terminal_id, workspace_id, tab_id
    this.herd = herd;
    this.cwd = cwd;
    this.label = undefined;
    this.title = undefined;
    this.revision = 0;
    this.scannedRevision = -1;
    this.alive = true;
    this.agent = null;
    this.observers = new Set();
    this.frameSeq = 0;
    this.term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    this.term.onTitleChange((title) => {
      this.title = title;
      herd.emit('pane.updated', { type: 'pane_updated', pane: this.info() }, this);
    });
    const shell = process.env.HERDR_DOUBLE_SHELL || '/bin/sh';
    this.pty = pty.spawn(shell, ['-i'], { name: env.TERM || 'xterm-256color', cols, rows, cwd, env });
    this.pty.onData((data) => {
      // A frame goes out once the emulator has parsed its bytes, as a frame of herdr's own
      // emulator does: xterm parses a long write across several ticks, and a client reading on a
      // frame sent before that (a clear parsed, the redraw not yet) read a blank pane, with no
      // later frame to make it read again.
      this.term.write(data, () => {
        this.revision++;
        this.broadcast(Buffer.from(data, 'utf8').toString('base64'), false);
      });
    });
    this.pty.onExit(({ exitCode }) => {
      this.alive = false;
      this.exitCode = exitCode;
      herd.paneExited(this);
    });
  }

  broadcast(base64, full) {
    if (this.observers.size === 0) return;
    const frame = {
      type: 'terminal.frame', seq: ++this.frameSeq, encoding: 'ansi',
      width: this.term.cols, height: this.term.rows, full, bytes: base64, final: true,
    };
    const line = `${JSON.stringify(frame)}\n`;
    for (const socket of this.observers) socket.write(line);
  }

  observe(socket) {
    // The full repaint is taken once the bytes already received are parsed (an empty write's
    // callback runs after them), and the observer joins then: every later frame is of bytes the
    // repaint does not hold.
    let closed = false;
    socket.on('close', () => {
      closed = true;
      this.observers.delete(socket);
    });
    this.term.write('', () => {
      if (closed) return;
      this.observers.add(socket);
      const frame = {
        type: 'terminal.frame', seq: ++this.frameSeq, encoding: 'ansi', width: this.term.cols, height: this.term.rows,
        full: true, bytes: Buffer.from(fullFrame(this.term), 'utf8').toString('base64'), final: true,
      };
      socket.write(`${JSON.stringify(frame)}\n`);
    });
  }

  write(bytes) {
    if (!this.alive) throw { code: 'pane_send_failed', message: `pane ${this.pane_id} has exited` };
    this.pty.write(bytes);
  }

  /** Public status: `done` is an idle the UI has not seen (§2.1 step 9); no agent = unknown. */
  status() {
    if (!this.agent) return 'unknown';
    if (this.agent.internal === 'idle' && !this.agent.seen) return 'done';
    return this.agent.internal;
  }

  /** One detection scan (called on the server tick). */
  scan(now) {
    if (!this.alive) return;
    const found = identify(this.pty.pid);
    if (this.agent && (!found || found.pid !== this.agent.pid)) {
      // A foreground process exit publishes idle, then the pane holds no agent.
      this.publish('idle');
      const { kind, name } = this.agent;
      if (name) this.herd.names.delete(name);
      this.agent = null;
      this.herd.emit('pane.agent_detected', { type: 'pane_agent_detected', pane_id: this.pane_id, workspace_id: this.workspace_id, agent: kind, released: true }, this);
    }
    if (!this.agent && found) {
      this.agent = {
        kind: found.kind, pid: found.pid, name: undefined, internal: 'unknown', seen: true,
        launchPending: false, interactiveReady: false, stateChangeSeq: this.herd.nextSeq(), graceUntil: now + STARTUP_GRACE_MS,
      };
      this.scannedRevision = -1;
      this.herd.emit('pane.agent_detected', { type: 'pane_agent_detected', pane_id: this.pane_id, workspace_id: this.workspace_id, agent: found.kind }, this);
    }
    if (!this.agent || now < this.agent.graceUntil) return;
    if (this.scannedRevision === this.revision && this.agent.internal === 'idle') return;
    this.scannedRevision = this.revision;
    const rules = this.agent.kind === 'claude' ? undefined : [];
    this.publish(classify(detectionRows(this.term), rules).state);
  }

  publish(state) {
    const agent = this.agent;
    if (!agent || agent.internal === state) return;
    const previous = agent.internal;
    if (state !== 'idle') agent.seen = true;
    else if ((previous === 'working' || previous === 'blocked' || previous === 'unknown') && !agent.launchPending) {
      // A completion is "seen" only in the active tab of a focused client; the double has no
      // client, so a finished agent reads `done` until something focuses it.
      agent.seen = false;
    }
    agent.internal = state;
    agent.stateChangeSeq = this.herd.nextSeq();
    this.herd.emit('pane.agent_status_changed', {
      pane_id: this.pane_id, workspace_id: this.workspace_id, agent_status: this.status(), agent: agent.kind,
    }, this);
  }

  info() {
    const info = {
      pane_id: this.pane_id, terminal_id: this.terminal_id, workspace_id: this.workspace_id, tab_id: this.tab_id,
      focused: false, cwd: this.cwd, agent_status: this.status(), state_labels: {}, tokens: {}, revision: this.revision,
    };
    if (this.label) info.label = this.label;
    if (this.agent) info.agent = this.agent.kind;
    if (this.title !== undefined) {
      info.terminal_title = this.title;
      info.terminal_title_stripped = this.title.replace(/^[\u2800-\u28ff·✢✳✶✻✽◐◓◑◒]\s*/u, '');
    }
    return info;
  }

  agentInfo() {
    const a = this.agent;
    const info = {
      terminal_id: this.terminal_id, agent: a.kind, agent_status: this.status(), state_labels: {}, tokens: {},
      workspace_id: this.workspace_id, tab_id: this.tab_id, pane_id: this.pane_id, focused: false,
      state_change_seq: a.stateChangeSeq, cwd: this.cwd, revision: this.revision,
    };
    if (a.name) info.name = a.name;
    if (a.launchPending) info.launch_pending = true;
    if (a.interactiveReady) info.interactive_ready = true;
    if (this.title !== undefined) info.terminal_title = this.title;
    return info;
  }

  /** Hangs up the pane: SIGHUP to its foreground group and shell, SIGKILL if they linger. */
  kill() {
    for (const socket of this.observers) socket.end();
    this.observers.clear();
    const shellPid = this.pty.pid;
    const group = foregroundGroup(shellPid);
    const signal = (sig) => {
      for (const target of [group && group !== shellPid ? -group : null, shellPid]) {
        if (!target) continue;
        try {
          process.kill(target, sig);
        } catch {
          // already gone
        }
      }
    };
    const exited = new Promise((resolve) => {
      if (!this.alive) return resolve();
      this.pty.onExit(() => resolve());
    });
    const groupAlive = () => Boolean(group && group !== shellPid && groupHasLiveMember(group));
    signal('SIGHUP');
    const deadline = Date.now() + 1500;
    const settle = async () => {
      await Promise.race([exited, new Promise((r) => setTimeout(r, 1500))]);
      while (groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // Whatever ignored the hang-up.
      if (groupAlive()) signal('SIGKILL');
      else if (this.alive) process.kill(shellPid, 'SIGKILL');
      this.term.dispose();
    };
    return settle();
  }
}
