/**
 * The record of a worker's browser checks (issue 40): `<out>/checks.json`, one entry per check id,
 * written by `hand browser-check` inside the worker's sandbox and read by the daemon as a
 * stranger's file (checks-verdict.ts). The tool writes what it observed; it never decides alone
 * what counts: the daemon judges each entry again from its observation.
 */
import { existsSync, lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '../../contract/browser-checks.ts';

export const CHECKS_FILE = 'checks.json';
export const CHECKS_KIND = 'kingshand-browser-checks';
/** The most of a checks record the daemon reads: a few dozen checks with their observations. */
export const CHECKS_READ_CAP = 256 * 1024;
/** The most of a page's text one observation keeps. */
export const OBSERVED_TEXT_CAP = 4000;

export interface Observation {
  /** The address asked for. */
  url: string;
  /** Where the browser ended up (after redirects). */
  finalUrl: string;
  /** The main document's HTTP status (null when no response). */
  status: number | null;
  title: string;
  /** The element read (a CSS selector), or null for the whole page. */
  selector: string | null;
  /** Its visible text, whitespace folded, capped at OBSERVED_TEXT_CAP. */
  text: string;
  expect: string[];
  expectNot: string[];
  /** What was done before reading (`click #save`, `fill #name`): only for a check the brief lets interact. */
  actions: string[];
  /** The browser that observed it (`Chromium 156.0…`). */
  browser: string;
  /** How the page load went when it did not (a network error), else null. */
  loadError: string | null;
}

export interface RecordedCheck {
  result: CheckResult;
  at: string;
  /** Why it is not checked (or failed without an observation). */
  reason?: string;
  observed?: Observation;
}

export interface ChecksRecord {
  kind: typeof CHECKS_KIND;
  version: 1;
  checks: Record<string, RecordedCheck>;
}

export function checksPath(outDir: string): string {
  return join(outDir, CHECKS_FILE);
}

/** Whitespace folded to single spaces: how a page's text and an expectation are compared. */
export const fold = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** What an observation shows for its expectations: verified only when every expected text is there and no unwanted one. */
export function outcomeOf(o: Pick<Observation, 'text' | 'expect' | 'expectNot' | 'loadError'>): { result: 'verified' | 'failed'; why: string } {
  if (o.loadError) return { result: 'failed', why: `the page did not load: ${o.loadError}` };
  const text = fold(o.text);
  const missing = o.expect.filter((e) => !text.includes(fold(e)));
  const present = o.expectNot.filter((e) => text.includes(fold(e)));
  if (o.expect.length === 0) return { result: 'failed', why: 'no expected text was given' };
  if (missing.length) return { result: 'failed', why: `not on the page: ${missing.map((m) => JSON.stringify(m)).join(', ')}` };
  if (present.length) return { result: 'failed', why: `on the page though it must not be: ${present.map((m) => JSON.stringify(m)).join(', ')}` };
  return { result: 'verified', why: `saw ${o.expect.map((m) => JSON.stringify(m)).join(', ')}` };
}

/** The record in `outDir` as this tool last wrote it, or a new one (a damaged or foreign file is started afresh). */
function current(path: string): ChecksRecord {
  try {
    if (!existsSync(path) || !lstatSync(path).isFile()) return { kind: CHECKS_KIND, version: 1, checks: {} };
    const v = JSON.parse(readFileSync(path, 'utf8')) as ChecksRecord;
    if (v?.kind === CHECKS_KIND && v.checks && typeof v.checks === 'object' && !Array.isArray(v.checks)) return v;
  } catch {
    // started afresh below
  }
  return { kind: CHECKS_KIND, version: 1, checks: {} };
}

/** Writes one check's entry (replacing its earlier one) as a new file renamed into place. */
export function writeCheck(outDir: string, id: string, entry: RecordedCheck): string {
  const path = checksPath(outDir);
  const record = current(path);
  record.checks[id] = entry;
  const tmp = join(outDir, `.${CHECKS_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return path;
}
