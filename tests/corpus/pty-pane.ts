/**
 * The capture corpus's second path: the program under node-pty with an @xterm/headless screen,
 * read the way the product's pty host reads it (xterm cells, untrimmed). Same small surface as
 * the tmux pane of tests/harness/claude-tmux.ts, so a scenario runs on either. Test plumbing only.
 */
import { waitStable } from '../helpers/screen-stable.ts';
import * as pty from 'node-pty';
import type { IBufferCell, Terminal as XTerm } from '@xterm/headless';
import { createTerminal, flushTerminal } from '../../io/terminal/pty/xterm-screen.ts';
import { waitFor } from '../helpers/temp.ts';

export interface CapturePane {
  /** Plain rows; `ansi` adds SGR renditions. The pty path keeps xterm's untrimmed cells. */
  capture(opts?: { ansi?: boolean }): Promise<string>;
  /** tmux key names (Enter, Escape, Down, Up, C-u, BTab, Tab, Space). */
  keys(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  waitForScreen(accept: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  waitStable(what: string, opts?: { quietMs?: number; timeoutMs?: number; accept?: (screen: string) => boolean }): Promise<string>;
  waitDead(timeoutMs?: number): Promise<{ dead: boolean; status: number | null }>;
  kill(): Promise<void>;
}

const KEY_BYTES: Record<string, string> = {
  Enter: '\r', Escape: '\x1b', Down: '\x1b[B', Up: '\x1b[A', 'C-u': '\x15', BTab: '\x1b[Z', Tab: '\t', Space: ' ', 'C-c': '\x03', 'C-j': '\n',
};

/** One cell's SGR parameters, as tmux's capture-pane -e would write them. */
function sgrOf(cell: IBufferCell): string {
  const p: string[] = ['0'];
  if (cell.isBold()) p.push('1');
  if (cell.isDim()) p.push('2');
  if (cell.isItalic()) p.push('3');
  if (cell.isUnderline()) p.push('4');
  if (cell.isInverse()) p.push('7');
  if (!cell.isFgDefault()) p.push(cell.isFgRGB() ? `38;2;${(cell.getFgColor() >> 16) & 255};${(cell.getFgColor() >> 8) & 255};${cell.getFgColor() & 255}` : `38;5;${cell.getFgColor()}`);
  if (!cell.isBgDefault()) p.push(cell.isBgRGB() ? `48;2;${(cell.getBgColor() >> 16) & 255};${(cell.getBgColor() >> 8) & 255};${cell.getBgColor() & 255}` : `48;5;${cell.getBgColor()}`);
  return p.join(';');
}

function viewport(term: XTerm, ansi: boolean): string {
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  const rows: string[] = [];
  for (let y = buffer.viewportY; y < buffer.viewportY + term.rows; y++) {
    const line = buffer.getLine(y);
    if (!line) {
      rows.push('');
      continue;
    }
    if (!ansi) {
      rows.push(line.translateToString(true));
      continue;
    }
    let out = '';
    let last = '0';
    for (let x = 0; x < term.cols; x++) {
      if (!line.getCell(x, cell) || cell.getWidth() === 0) continue;
      const sgr = sgrOf(cell);
      if (sgr !== last) {
        out += `\x1b[${sgr}m`;
        last = sgr;
      }
      out += cell.getChars() || ' ';
    }
    rows.push(out.replace(/ +$/, '') + (last === '0' ? '' : '\x1b[0m'));
  }
  return rows.join('\n') + '\n';
}

export function launchInPty(spec: { cwd: string; env: Record<string, string>; argv: string[]; cols: number; rows: number }): CapturePane {
  const term = createTerminal(spec.cols, spec.rows);
  const proc = pty.spawn(spec.argv[0]!, spec.argv.slice(1), { cwd: spec.cwd, env: spec.env, cols: spec.cols, rows: spec.rows, name: 'xterm-256color' });
  let exit: { status: number | null } | null = null;
  proc.onData((d) => term.write(d));
  proc.onExit(({ exitCode }) => {
    exit = { status: exitCode };
  });
  const capture = async (opts: { ansi?: boolean } = {}) => {
    await flushTerminal(term);
    return viewport(term, opts.ansi === true);
  };
  let lastScreen = '';
  const waitForScreen = async (accept: (s: string) => boolean, what: string, timeoutMs = 20_000) => {
    try {
      return await waitFor(async () => {
        lastScreen = await capture();
        return accept(lastScreen) ? lastScreen : false;
      }, { what, timeoutMs, intervalMs: 100 });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- last screen ---\n${lastScreen}`);
    }
  };
  return {
    capture,
    async keys(...keys) {
      for (const k of keys) {
        const bytes = KEY_BYTES[k];
        if (bytes === undefined) throw new Error(`pty-pane: no bytes for key ${JSON.stringify(k)}`);
        proc.write(bytes);
      }
    },
    async type(text) {
      proc.write(text);
    },
    waitForScreen,
    async waitStable(what, opts) {
      return waitStable(waitForScreen, what, opts);
    },
    async waitDead(timeoutMs = 20_000) {
      const done = await waitFor(() => exit ?? false, { what: 'the pty program to exit', timeoutMs, intervalMs: 50 });
      return { dead: true, status: done.status };
    },
    async kill() {
      if (exit === null) {
        try {
          proc.kill('SIGHUP');
        } catch {
          /* already gone */
        }
        await waitFor(() => exit !== null, { what: 'the pty program to exit after SIGHUP', timeoutMs: 5_000, intervalMs: 50 }).catch(() => proc.kill('SIGKILL'));
      }
      term.dispose();
    },
  };
}
