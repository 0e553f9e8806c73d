/**
 * Rule: a prompt's Enter goes once its text is drawn in the box, not merely after some redraw.
 * An agent busy loading (Gemini CLI resuming a long conversation, on a loaded machine) took the
 * daemon's resume line and its Enter in one read, and the line sat in its box unsubmitted while
 * the worker was read as settled. A stand-in agent draws typed text only 600 ms after it comes and
 * writes down whether each Enter came before that: the guarded send waits for the text in the box
 * (bounded), so the Enter comes after it. Without an agent's reader nothing is waited for.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import { waitFor } from '../helpers/temp.ts';
import { waitForReading } from './mock-worker.ts';
import { usePtyPanes } from './pty-panes.ts';

const AGENT = join(import.meta.dirname, 'fixtures', 'slow-echo-agent.mjs');
const IDLE = join(import.meta.dirname, '..', 'fixtures', 'claude-code', '2.1.332', '04-idle-box.txt');

describe('an Enter follows the text the agent has drawn', () => {
  const panes = usePtyPanes('slow-echo', { submitDelayMs: 50 });

  async function slowAgent() {
    let log = '';
    const { paneId } = await panes.pane((dir) => {
      log = join(dir, 'enters.log');
      writeFileSync(log, '');
      return [process.execPath, AGENT, IDLE, log, '600'];
    });
    await waitForReading(panes.host(), paneId, (r) => r.state === 'idle' && r.promptBox === '', 'the idle, empty box');
    return { paneId, log };
  }

  it("with the agent's reader: the Enter comes once the text is in the box", async () => {
    const { paneId, log } = await slowAgent();
    await guardedSendText(panes.host(), paneId, 'carry on', { agent: 'claude' });
    const enters = await waitFor(() => readFileSync(log, 'utf8').trim() || undefined, { what: 'the Enter to reach the agent', timeoutMs: 5_000 });
    expect(enters).toBe('enter-after-echo carry on');
  });

  it('without a reader to ask (no agent named): the Enter follows the first redraw, as before', async () => {
    const { paneId, log } = await slowAgent();
    await guardedSendText(panes.host(), paneId, 'carry on');
    const enters = await waitFor(() => readFileSync(log, 'utf8').trim() || undefined, { what: 'the Enter to reach the agent', timeoutMs: 5_000 });
    expect(enters).toBe('enter-before-echo');
  });
});
