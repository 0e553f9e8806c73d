/**
 * herdr is optional: the daemon hosts it only when HAND_HERDR_BIN names the binary
 * (HAND_HERDR_SOCKET optionally names its server socket).
 */
import type { TerminalHost } from '../io/terminal/types.ts';
import { answerBoundOf } from '../io/terminal/server-answers.ts';

/** `launchDir`: where a worker's environment waits for its launcher (the daemon's own, in its state directory). */
export async function createOptionalHerdrHost(env: Record<string, string | undefined>, launchDir?: string): Promise<TerminalHost | null> {
  const herdrBin = env.HAND_HERDR_BIN;
  if (!herdrBin) return null;
  // Loaded only when asked for: it brings execa, which a daemon without herdr never needs at start.
  const { createHerdrHost } = await import('../io/terminal/herdr/herdr-host.ts');
  return createHerdrHost({ herdrBin, socketPath: env.HAND_HERDR_SOCKET || undefined, env, answerBoundMs: answerBoundOf(env), ...(launchDir ? { launchDir } : {}) });
}
