/**
 * `hand screen inspect <file> [--ansi] [--agent claude] [--json]`: the analysis of one capture
 * file, for checking what the supervisor would make of a screen. Bad input is a UsageError
 * (exit 2 at the CLI edge) whose one line names the file and says what to do instead.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../../contract/errors.ts';
import { analyseScreen, DEFAULT_AGENT, getProfile, parseAnsi, parsePlain } from '../../io/screen/index.ts';
import type { ScreenReading } from '../../io/screen/index.ts';

export interface ScreenInspectOptions {
  /** Parse SGR escapes; when absent, decided by whether the file contains ESC. */
  ansi?: boolean;
  agent?: string;
}

export type ScreenInspectResult = Pick<
  ScreenReading,
  'state' | 'awaitingInput' | 'blockedReason' | 'promptBox' | 'promptBoxKind' | 'readable' | 'fingerprint' | 'lastActivity'
>;

const CAPTURE_HINT = 'pass a text capture such as `tmux capture-pane -p [-e] -t <pane> > screen.txt`';

function bad(code: string, file: string, what: string): UsageError {
  return new UsageError(code, `screen inspect: ${file} ${what}; ${CAPTURE_HINT}`, { file });
}

/** A screen capture, even with deep scrollback, is far below this; anything larger is not one. */
export const MAX_CAPTURE_BYTES = 8 * 1024 * 1024;

/**
 * Only a regular file is read, and only up to MAX_CAPTURE_BYTES: /dev/zero would be read
 * forever and a FIFO blocks the read until someone writes. The file is opened non-blocking and
 * checked on the open descriptor, so it cannot be swapped for a FIFO between check and read.
 */
async function readCapture(file: string): Promise<string> {
  let bytes: Buffer;
  let fh: FileHandle | null = null;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await fh.stat();
    if (info.isDirectory()) throw bad('capture-is-directory', file, 'is a directory, not a capture file');
    if (!info.isFile()) throw bad('capture-not-a-file', file, 'is not a regular file (a device, FIFO or socket)');
    if (info.size > MAX_CAPTURE_BYTES) {
      throw bad('capture-too-large', file, `is ${info.size} bytes, more than the ${MAX_CAPTURE_BYTES / (1024 * 1024)} MiB a screen capture can be`);
    }
    const buf = Buffer.alloc(info.size);
    const { bytesRead } = await fh.read(buf, 0, info.size, 0);
    bytes = buf.subarray(0, bytesRead);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw bad('capture-not-found', file, 'does not exist');
    if (code === 'EISDIR') throw bad('capture-is-directory', file, 'is a directory, not a capture file');
    throw bad('capture-unreadable', file, `cannot be read (${code ?? String(err)})`);
  } finally {
    await fh?.close();
  }
  if (bytes.length === 0) throw bad('capture-empty', file, 'is empty');
  if (bytes.includes(0)) throw bad('capture-binary', file, 'is binary (it contains NUL bytes)');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw bad('capture-binary', file, 'is not valid UTF-8 text');
  }
}

export async function screenInspect(file: string, opts: ScreenInspectOptions = {}): Promise<ScreenInspectResult> {
  const agent = opts.agent ?? DEFAULT_AGENT;
  getProfile(agent); // an unknown agent fails before any file is read
  const text = await readCapture(file);
  const ansi = opts.ansi ?? text.includes('\x1b');
  const reading = analyseScreen(ansi ? parseAnsi(text) : parsePlain(text), agent);
  // Exactly these fields, in this order: the --json output is a contract.
  return {
    state: reading.state,
    awaitingInput: reading.awaitingInput,
    blockedReason: reading.blockedReason,
    promptBox: reading.promptBox,
    promptBoxKind: reading.promptBoxKind,
    readable: reading.readable,
    fingerprint: reading.fingerprint,
    lastActivity: reading.lastActivity,
  };
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** Human-readable form: one `label: value` line per field. */
export function formatScreenInspect(result: ScreenInspectResult): string {
  const box =
    result.promptBox === null
      ? 'none visible'
      : result.promptBox === ''
        ? `empty (${result.promptBoxKind})`
        : `${JSON.stringify(result.promptBox)} (${result.promptBoxKind})`;
  const rows: [string, string][] = [
    ['state', result.state],
    ['awaiting input', yesNo(result.awaitingInput)],
    ['blocked reason', result.blockedReason ?? '-'],
    ['prompt box', box],
    ['readable', yesNo(result.readable)],
    ['fingerprint', result.fingerprint === '' ? '-' : result.fingerprint],
    ['last activity', result.lastActivity === '' ? '-' : result.lastActivity],
  ];
  return rows.map(([label, value]) => `${`${label}:`.padEnd(16)}${value}`).join('\n');
}
