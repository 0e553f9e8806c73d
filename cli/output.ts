/** Printing at the CLI edge: JSON for scripts, short readable text for people. */
import { HandError } from '../contract/errors.ts';
import { escapeControls } from '../io/text/escape-controls.ts';
import { fitQuote } from '../contract/worker-words.ts';
import { cliErr, cliOut, type CliStream } from './io.ts';

/** Every line for a person goes out here, terminal control shown as text (io/text/escape-controls.ts). */
export function printText(stream: CliStream, text: string): void {
  stream.write(escapeControls(text));
}

export interface GlobalOptions {
  home?: string;
  json?: boolean;
}

export function emit(json: boolean | undefined, value: unknown, text: () => string): void {
  if (json) cliOut().write(`${JSON.stringify(value, null, 2)}\n`);
  else {
    const t = text();
    if (t) printText(cliOut(), t.endsWith('\n') ? t : `${t}\n`);
  }
}

/** Turns any error into an exit code; typed errors keep theirs. */
export function reportError(err: unknown, json: boolean | undefined): number {
  if (err instanceof HandError) {
    if (json) cliOut().write(`${JSON.stringify({ error: { code: err.code, message: err.message, ...err.details } }, null, 2)}\n`);
    printText(cliErr(), `hand: ${err.message}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  if (json) cliOut().write(`${JSON.stringify({ error: { code: 'internal', message: String(err) } }, null, 2)}\n`);
  printText(cliErr(), `hand: unexpected error: ${message}\n`);
  return 1;
}

/** A fixed-width table for status-like lists. */
export function table<R extends object>(rows: R[], columns: string[]): string {
  if (rows.length === 0) return '';
  // A column the row lacks prints as '-' (a row type need not declare every column).
  const cells = rows.map((r) => columns.map((c) => cellText(c in r ? Reflect.get(r, c) : undefined)));
  const widths = columns.map((c, i) => Math.min(48, Math.max(c.length, ...cells.map((row) => row[i]!.length))));
  // A worker's quoted words are cut inside their quote, which stays closed (contract/worker-words.ts).
  const line = (vals: string[]) => vals.map((v, i) => (v.length > widths[i]! ? fitQuote(v, widths[i]!) : v).padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v).replace(/\s+/g, ' ');
}
