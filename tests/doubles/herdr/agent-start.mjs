// `agent.start` as documented (reference §1.4): the pane must be an idle interactive shell;
// herdr types the shell-quoted command line `<kind> <args…>` into it and returns only when the
// expected agent owns the terminal and is idle/done and interactive-ready. A startup `blocked`
// (folder-trust dialog) fails at once with agent_not_ready while the name stays usable.
import { AGENT_KINDS, reapedChildFaults, shellOwnsForeground } from './identify.mjs';

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const DEFAULT_TIMEOUT_MS = 30_000;

const fail = (code, message) => {
  throw { code, message };
};

function shellQuote(word) {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export async function startAgent(herd, { name, kind, pane_id, args = [], timeout_ms }) {
  if (typeof name !== 'string' || !NAME.test(name)) fail('invalid_agent_name', `invalid agent name ${JSON.stringify(name)}: names match [a-z][a-z0-9_-]{0,31}`);
  if (!AGENT_KINDS.includes(kind)) fail('unsupported_agent_kind', `unsupported agent kind ${JSON.stringify(kind)}`);
  for (const arg of args) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(arg)) fail('invalid_agent_argument', `agent argument contains a control character: ${JSON.stringify(arg)}`);
  }
  const timeout = timeout_ms ?? DEFAULT_TIMEOUT_MS;
  if (!(timeout > 3000 && timeout <= 300_000)) fail('invalid_agent_timeout', 'timeout must be in (3000, 300000] ms');
  const pane = herd.panes.get(pane_id);
  if (!pane) fail('agent_pane_not_found', `pane ${pane_id} not found`);
  if (herd.names.has(name)) fail('agent_name_taken', `agent name ${name} is already taken`);
  if (!pane.alive) fail('agent_pane_unavailable', `pane ${pane_id} has exited`);
  if (pane.agent || !shellOwnsForeground(pane.pty.pid)) fail('agent_pane_busy', `pane ${pane_id} is not an idle shell`);

  herd.names.set(name, pane_id); // reserved while the launch is pending
  const reapedBefore = reapedChildFaults(pane.pty.pid);
  pane.write(`${[kind, ...args].map(shellQuote).join(' ')}\r`);
  // The typed command ran and ended: the shell reaped a child and owns the terminal again.
  const commandEnded = () => reapedChildFaults(pane.pty.pid) > reapedBefore && shellOwnsForeground(pane.pty.pid);
  const started = Date.now();
  let sawAgent = false;
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (!herd.panes.has(pane_id) || !pane.alive) fail('agent_start_failed', 'agent process exited before becoming interactive');
      const agent = pane.agent;
      if (agent) {
        if (agent.kind !== kind) fail('agent_kind_mismatch', `pane ${pane_id} runs ${agent.kind}, not ${kind}`);
        sawAgent = true;
        if (!agent.name) {
          agent.name = name;
          agent.launchPending = true;
        }
        const status = pane.status();
        if (status === 'idle' || status === 'done') {
          agent.launchPending = false;
          agent.interactiveReady = true;
          return { type: 'agent_started', agent: pane.agentInfo(), argv: [kind, ...args] };
        }
        if (status === 'blocked') {
          agent.launchPending = false;
          fail('agent_not_ready', `agent ${name} is blocked and requires interactive input`);
        }
      } else if (sawAgent || commandEnded() || (Date.now() - started > 2000 && shellOwnsForeground(pane.pty.pid))) {
        fail('agent_start_failed', 'agent process exited before becoming interactive');
      }
      if (Date.now() - started > timeout) fail('timeout', 'timed out waiting for agent startup');
    }
  } catch (err) {
    // The name stays with a live agent (agent_not_ready, timeout while it runs); otherwise free it.
    if (!pane.agent || pane.agent.name !== name) herd.names.delete(name);
    throw err;
  }
}
