/**
 * `hand screen inspect`: the reading of a capture file with exactly the contract's JSON fields,
 * and a one-line UsageError (exit 2) naming the file for every kind of bad input.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatScreenInspect, screenInspect } from '../../cli/commands/screen-inspect.ts';
import { UsageError } from '../../contract/errors.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { FIXTURE_DIR } from './helpers.ts';

let dir: { path: string; cleanup: () => void };
beforeEach(() => {
  dir = makeTempDir('screen-inspect');
});
afterEach(() => dir.cleanup());

async function refusal(file: string, opts = {}): Promise<UsageError> {
  const err = await screenInspect(file, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  const usage = err as UsageError;
  expect(usage.exitCode).toBe(2);
  expect(usage.message).not.toContain('\n');
  return usage;
}

describe('screen inspect reports the reading of a capture', () => {
  it('JSON fields are exactly the contract, in order', async () => {
    const result = await screenInspect(`${FIXTURE_DIR}2.1.332/06-permission-bash.txt`, {});
    expect(Object.keys(result)).toEqual(['state', 'awaitingInput', 'blockedReason', 'promptBox', 'promptBoxKind', 'readable', 'fingerprint', 'lastActivity']);
    expect(result).toMatchObject({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, readable: true });
  });

  it('detects SGR by the ESC byte when --ansi is not given: the suggestion is seen', async () => {
    const file = join(dir.path, 'capture');
    copyFileSync(`${FIXTURE_DIR}2.1.332/09-prompt-suggestion.ansi.txt`, file);
    expect(await screenInspect(file, {})).toMatchObject({ promptBox: 'run the tests', promptBoxKind: 'suggestion' });
  });

  it('--ansi on a plain capture reads the same as plain', async () => {
    const file = `${FIXTURE_DIR}2.1.332/04d-box-with-typed-text.txt`;
    expect(await screenInspect(file, { ansi: true })).toEqual(await screenInspect(file, {}));
  });

  it('the text form names every field on its own line', async () => {
    const text = formatScreenInspect(await screenInspect(`${FIXTURE_DIR}2.1.332/09-prompt-suggestion.ansi.txt`, { agent: 'claude' }));
    expect(text).toMatch(/^state: +idle$/m);
    expect(text).toMatch(/^awaiting input: +no$/m);
    expect(text).toMatch(/^blocked reason: +-$/m);
    expect(text).toMatch(/^prompt box: +"run the tests" \(suggestion\)$/m);
    expect(text).toMatch(/^readable: +yes$/m);
    expect(text).toMatch(/^fingerprint: +[0-9a-f]{16}$/m);
    expect(text).toMatch(/^last activity: +.+ \| .+ \| .+$/m);
  });

  it('a blank (all newlines) capture is a valid screen that reads unknown and unreadable', async () => {
    const file = join(dir.path, 'blank.txt');
    writeFileSync(file, '\n'.repeat(40));
    expect(await screenInspect(file, {})).toMatchObject({ state: 'unknown', readable: false, fingerprint: '' });
  });
});

describe('bad input is a one-line usage error naming the file', () => {
  it('a missing file', async () => {
    const file = join(dir.path, 'nope.txt');
    const err = await refusal(file);
    expect(err.code).toBe('capture-not-found');
    expect(err.message).toContain(file);
    expect(err.message).toContain('capture-pane');
  });

  it('a directory', async () => {
    const sub = join(dir.path, 'sub');
    mkdirSync(sub);
    expect((await refusal(sub)).code).toBe('capture-is-directory');
  });

  it('an empty file', async () => {
    const file = join(dir.path, 'empty.txt');
    writeFileSync(file, '');
    expect((await refusal(file)).code).toBe('capture-empty');
  });

  it('a binary file with NUL bytes', async () => {
    const file = join(dir.path, 'bin');
    writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    expect((await refusal(file)).code).toBe('capture-binary');
  });

  it('a file that is not valid UTF-8', async () => {
    const file = join(dir.path, 'latin1.txt');
    writeFileSync(file, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const err = await refusal(file);
    expect(err.code).toBe('capture-binary');
    expect(err.message).toContain('UTF-8');
  });

  it('an unknown agent profile, before the file is read', async () => {
    const err = await refusal(join(dir.path, 'nope.txt'), { agent: 'cursor' });
    expect(err.code).toBe('unknown-agent');
  });
});
