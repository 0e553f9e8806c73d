/**
 * Pure parsing of tmux control-mode lines (tmux(1) "CONTROL MODE"; xstate-notes §5.3).
 *
 * Every command gets one reply block `%begin <t> <n> <flags>` … `%end|%error <t> <n> <flags>`;
 * notifications never appear inside a block. We only need the pane of `%output` (the change
 * trigger; the screen is read back with capture-pane, never from this stream — its bytes only
 * give the frame's repaint key, repaint-key.ts) and `%subscription-changed` (exit status and title).
 */

export type ControlLine =
  | { kind: 'begin'; tag: string }
  | { kind: 'end'; tag: string; error: boolean }
  | { kind: 'output'; paneId: string }
  | { kind: 'subscription'; name: string; paneId: string; value: string }
  | { kind: 'exit'; reason: string }
  | { kind: 'other'; line: string };

const BLOCK = /^%(begin|end|error) (\d+ \d+) \d+$/;
const OUTPUT = /^%(?:output|extended-output) (%\d+) /;
// %subscription-changed <name> $<session> @<window> <window-index> %<pane> ... : <value>
const SUBSCRIPTION = /^%subscription-changed (\S+) \$\d+ @\d+ \d+ (%\d+) .*?: (.*)$/s;

export function parseControlLine(line: string): ControlLine {
  const block = BLOCK.exec(line);
  if (block) {
    const tag = block[2]!;
    return block[1] === 'begin' ? { kind: 'begin', tag } : { kind: 'end', tag, error: block[1] === 'error' };
  }
  const output = OUTPUT.exec(line);
  if (output) return { kind: 'output', paneId: output[1]! };
  const sub = SUBSCRIPTION.exec(line);
  if (sub) return { kind: 'subscription', name: sub[1]!, paneId: sub[2]!, value: sub[3]! };
  if (line === '%exit' || line.startsWith('%exit ')) return { kind: 'exit', reason: line.slice(6) };
  return { kind: 'other', line };
}

/**
 * Quotes one argument for a command line sent over the control channel (it is parsed by tmux's
 * command parser, unlike argv). Single quotes keep everything literal except the quote itself.
 */
export function quoteControlArg(arg: string): string {
  if (/[\n\r]/.test(arg)) throw new Error('a control-mode argument cannot contain a line break');
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Exit facts from the `#{pane_dead}-#{pane_dead_status}-#{pane_dead_signal}` subscription. */
export interface DeadState {
  dead: boolean;
  /** Exit status; a death by signal N reads as 128+N (the shell's convention); null if unknown. */
  code: number | null;
}

export function parseDeadValue(value: string): DeadState {
  const [dead, status, signal] = value.trim().split('-');
  if (dead !== '1') return { dead: false, code: null };
  const st = Number.parseInt(status ?? '', 10);
  if (Number.isFinite(st)) return { dead: true, code: st };
  const sig = Number.parseInt(signal ?? '', 10);
  return { dead: true, code: Number.isFinite(sig) ? 128 + sig : null };
}
