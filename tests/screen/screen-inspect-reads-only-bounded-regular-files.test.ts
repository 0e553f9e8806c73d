/**
 * `hand screen inspect` reads only a regular file, and only one of a capture's size: on
 * /dev/zero it used to read until memory ran out (7 GB), on a FIFO it waited forever. Both are
 * now refused at once with a usage error naming the file.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CAPTURE_BYTES, screenInspect } from '../../cli/commands/screen-inspect.ts';
import { UsageError } from '../../contract/errors.ts';
import { makeTempDir } from '../helpers/temp.ts';

let dir: { path: string; cleanup: () => void };
let fifo: string | null = null;
beforeEach(() => {
  dir = makeTempDir('inspect-bounded');
});
afterEach(() => {
  // A reader blocked on the FIFO (the old behaviour) is released by a writer opening and closing it.
  if (fifo) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      /* no reader left: nothing to release */
    }
    fifo = null;
  }
  dir.cleanup();
});

async function refusal(file: string): Promise<UsageError> {
  const err = await screenInspect(file, {}).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('screen inspect reads only bounded regular files', () => {
  it('a FIFO is refused at once, never waited on', { timeout: 5000 }, async () => {
    fifo = join(dir.path, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const err = await refusal(fifo);
    expect(err.code).toBe('capture-not-a-file');
    expect(err.message).toContain(`${fifo} is not a regular file`);
  });

  it('a device (/dev/zero) is refused, not read', { timeout: 5000 }, async () => {
    const err = await refusal('/dev/zero');
    expect(err.code).toBe('capture-not-a-file');
  });

  it('a file larger than a capture can be is refused naming the limit', async () => {
    const big = join(dir.path, 'big.txt');
    writeFileSync(big, '');
    truncateSync(big, MAX_CAPTURE_BYTES + 1);
    const err = await refusal(big);
    expect(err.code).toBe('capture-too-large');
    expect(err.message).toMatch(/more than the 8 MiB/);
  });
});
