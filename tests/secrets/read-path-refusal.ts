/**
 * The refusal a read path meets, for the read-path rules' tests: the message of what
 * validateReadPaths threw, and a failed test when it accepted the path.
 */
import { expect } from 'vitest';
import { validateReadPaths } from '../../io/brief/read-paths.ts';

export type ReadPathContext = Parameters<typeof validateReadPaths>[1];

/** The refusal's message for one read path under `ctx` (fails the test when it was accepted). */
export function readPathRefusal(ctx: ReadPathContext): (path: string) => string {
  return (path) => {
    try {
      validateReadPaths([path], ctx);
    } catch (err) {
      return (err as Error).message;
    }
    return expect.fail(`${path} was handed to a worker`);
  };
}
