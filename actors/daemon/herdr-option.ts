/**
 * herdr is optional: the daemon hosts it only when HAND_HERDR_BIN names the binary
 * (HAND_HERDR_SOCKET optionally names its server socket).
 */
import { createHerdrHost } from '../../io/terminal/herdr/herdr-host.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';

export function createOptionalHerdrHost(env: Record<string, string | undefined>): TerminalHost | null {
  const herdrBin = env.HAND_HERDR_BIN;
  if (!herdrBin) return null;
  return createHerdrHost({ herdrBin, socketPath: env.HAND_HERDR_SOCKET || undefined, env });
}
