/**
 * CI caught a capture of the mock, after Esc on a permission dialog, that showed `Interrupted`
 * beside a live spinner and so read as working: the key closed the dialog (one frame, spinner
 * back), the turn replaced its tool line (another), appended `Interrupted` (another) and ended (the
 * idle frame). The real program (Ink) draws the result of an event, never each step. The rule: the
 * mock draws once per key, and every screen it ever shows after the Escape reads as idle.
 */
import { PassThrough } from 'node:stream';
import xterm from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { MockAgentApp, type TerminalPort } from '../../mock-agent/app.ts';
import { resolveConfig } from '../../mock-agent/options.ts';
import { classifyPlain } from './mock-pane.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const { Terminal } = xterm;
const COLS = 100;
const ROWS = 30;

interface Drawn {
  /** The screen after each write, in order. */
  screens: string[];
}

function fakeTerminal(): { port: TerminalPort; input: PassThrough; drawn: Drawn; settled: () => Promise<void>; term: InstanceType<typeof Terminal> } {
  const term = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  const drawn: Drawn = { screens: [] };
  let chain = Promise.resolve();
  const input = new PassThrough();
  const text = () => {
    const buf = term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < ROWS; y++) rows.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
    return rows.join('\n');
  };
  const port: TerminalPort = {
    input,
    output: {
      write: (data: string) => {
        chain = chain.then(() => new Promise<void>((done) => term.write(data, () => (drawn.screens.push(text()), done()))));
        return true;
      },
    },
    errorOutput: { write: () => true },
    size: () => ({ cols: COLS, rows: ROWS }),
    onResize: () => () => {},
  };
  return { port, input, drawn, settled: () => chain, term };
}

let stops: Array<() => void> = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

describe('one key draws one frame', () => {
  it('Esc on a permission dialog goes straight to the interrupted, idle screen', async () => {
    const dir = makeTempDir('mock-frames');
    stops.push(dir.cleanup);
    const env = { KH_MOCK_TICK_MS: '250', KH_MOCK_REPLY_MS: '50', HOME: dir.path };
    const cfg = resolveConfig({ skipTrust: true }, env, dir.path);
    const t = fakeTerminal();
    const app = new MockAgentApp(cfg, t.port);
    const done = app.run();
    stops.push(() => app.terminate(0), () => t.term.dispose());
    const last = () => t.drawn.screens.at(-1) ?? '';
    const screen = async (pred: (s: string) => boolean, what: string) => {
      await waitFor(async () => (await t.settled(), pred(last())), { what, timeoutMs: 10_000, intervalMs: 10 });
    };
    await screen((s) => s.includes('\u276F\u00A0'), 'the input box');
    t.input.write('MODE:bash make a file');
    await screen((s) => s.includes('MODE:bash make a file'), 'the prompt typed in the box');
    t.input.write('\r');
    await screen((s) => s.includes('Do you want to proceed?'), 'the permission dialog');
    await t.settled();
    const before = t.drawn.screens.length;
    t.input.write('\x1b');
    await screen((s) => s.includes('Interrupted \u00B7 What should Claude do instead?'), 'the interrupted turn');
    await t.settled();
    const after = t.drawn.screens.slice(before);
    expect(after.map((s) => classifyPlain(s).state), after.join('\n----\n')).toEqual(after.map(() => 'idle'));
    expect(after.length, 'frames drawn after the Escape').toBe(1);
    app.terminate(0);
    expect(await done).toBe(0);
  });
});
