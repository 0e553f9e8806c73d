/**
 * Raw ESC/BEL bytes from input never reach the person's terminal: a path named
 * `x\033]0;pwned\007` used to retitle the terminal when an error message or `hand logs` echoed
 * it. At the CLI output edge such bytes are shown as visible `\xNN` escapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';
import { escapeControls } from '../../io/text/escape-controls.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('cli-escape');
});
afterAll(async () => {
  await w.cleanup();
});

const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** The path's ESC and BEL as visible text: `\x1b`/`\x07`, or JSON's `\u001b`/`\u0007`. */
const ESCAPED = /x\\(?:x1b|u001b)\]0;pwned\\(?:x07|u0007)/;

describe('terminal control in output is shown as text', () => {
  it('an error message naming a path with ESC and BEL prints them escaped', async () => {
    const evil = join(w.root, 'x\x1b]0;pwned\x07');
    const r = await w.hand(['annex', evil]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    // Escaped either by the printer (\x1b) or already by the message that quotes the path (\u001b).
    expect(r.stderr).toMatch(ESCAPED);
  });

  it('hand logs shows the same bytes escaped', async () => {
    const r = await w.hand(['logs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(ESCAPED);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
  });

  it('a bad option echoed back by the parser is escaped too', async () => {
    const r = await w.hand(['status', '--\x1b[2J']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });

  it('newline and tab stay; C1 controls and DEL are escaped', () => {
    expect(escapeControls('a\tb\nc\x9b2J\x7f')).toBe('a\tb\nc\\x9b2J\\x7f');
  });
});
