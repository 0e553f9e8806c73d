/** `hand mock-agent [args…]`: runs the mock agent's own entry with the remaining arguments. */
export async function runMockAgentCli(args: string[]): Promise<void> {
  process.argv = [process.argv[0]!, 'mock-agent', ...args];
  await import('../../mock-agent/main.ts');
}
