/**
 * `hand mock-agent`: runs the scripted Claude Code stand-in on this terminal. Resolves with the
 * exit status the process should end with (0 after /exit, 1 when the folder is not trusted,
 * 3 after MODE:crash, ...); bad options throw a UsageError (exit 2).
 */
import { startMockAgent, type MockAgentOptions } from '../../io/agent/mock-agent/run.ts';

export type { MockAgentOptions };

export function runMockAgent(options: MockAgentOptions): Promise<number> {
  return startMockAgent(options);
}
