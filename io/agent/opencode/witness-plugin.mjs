/**
 * kingshand's second witness inside an OpenCode worker: an OpenCode plugin (loaded from this file
 * by the worker's OPENCODE_CONFIG_CONTENT, `plugin: [[<this file>, { hand: [...] }]]`) that says
 * what OpenCode's own events say, through the same `hand hook <event>` command and payload words
 * Claude Code's hooks use, so the daemon's witness (actors/witness.ts) needs no new vocabulary:
 *   session.status busy (first of a turn)  → UserPromptSubmit   (working)
 *   session.idle (after a busy turn)       → Stop               (idle)
 *   permission.asked                       → Notification permission_prompt   (needs input)
 *   question.asked                         → Notification elicitation_dialog  (needs input)
 *   session.error (not an interrupt)       → StopFailure        (the turn failed; no Stop after it)
 * Events of a sub-agent's session (one with a parent) are its parent's work, not a turn of the
 * worker's: they are not said. Notes go out one at a time, in order (a hook's time is when it
 * runs: two at once could arrive swapped). The payload carries no prompt text and no tool input.
 * Plain JavaScript with no import of OpenCode's own: it runs in OpenCode's Bun process as it is.
 */
import { spawn } from 'node:child_process';

/** A hook past this is killed: the witness must never hold OpenCode's event loop. */
const HOOK_TIMEOUT_MS = 10_000;

export const KingshandWitness = async (_input, options) => {
  const hand = Array.isArray(options?.hand) && options.hand.every((a) => typeof a === 'string') ? options.hand : null;
  if (hand === null || hand.length === 0) return {};
  const children = new Set();
  let busy = false;
  let chain = Promise.resolve();

  const run = (event, payload) => new Promise((resolve) => {
    let child;
    try {
      child = spawn(hand[0], [...hand.slice(1), 'hook', event], { stdio: ['pipe', 'ignore', 'ignore'] });
    } catch {
      resolve();
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), HOOK_TIMEOUT_MS);
    const done = () => { clearTimeout(timer); resolve(); };
    child.once('error', done);
    child.once('exit', done);
    child.stdin.once('error', () => {});
    child.stdin.end(JSON.stringify({ hook_event_name: event, ...payload }));
  });
  const say = (event, payload) => {
    chain = chain.then(() => run(event, payload), () => run(event, payload));
  };

  return {
    event: async ({ event }) => {
      const p = event?.properties ?? {};
      const session = typeof p.sessionID === 'string' ? p.sessionID : undefined;
      switch (event?.type) {
        case 'session.created':
          if (p.info?.parentID && typeof p.info.id === 'string') children.add(p.info.id);
          return;
        case 'session.status':
          if (children.has(session) || p.status?.type !== 'busy' || busy) return;
          busy = true;
          say('UserPromptSubmit', { session_id: session });
          return;
        case 'session.idle':
          if (children.has(session) || !busy) return;
          busy = false;
          say('Stop', { session_id: session });
          return;
        case 'permission.asked':
          say('Notification', { notification_type: 'permission_prompt', message: `OpenCode needs your permission to use ${typeof p.permission === 'string' ? p.permission.slice(0, 64) : 'a tool'}`, session_id: session });
          return;
        case 'question.asked':
          say('Notification', { notification_type: 'elicitation_dialog', message: 'OpenCode asks a question', session_id: session });
          return;
        case 'session.error': {
          const error = p.error ?? {};
          // An interrupt is no failure: the idle after it says the turn is over.
          if (children.has(session) || error.name === 'MessageAbortedError') return;
          // The failure is the turn's end (Claude Code's StopFailure comes instead of its Stop).
          busy = false;
          const details = typeof error.data?.message === 'string' ? error.data.message : undefined;
          say('StopFailure', { error: typeof error.name === 'string' ? error.name : 'error', ...(details ? { error_details: details.slice(0, 2000) } : {}), session_id: session });
          return;
        }
        default:
      }
    },
  };
};
