/**
 * The shared TerminalHost contract, run against the herdr backend with the herdr double as the
 * server (herdr cannot be installed here: docs/herdr-double.md).
 */
import { createHerdrHost } from '../../io/terminal/herdr/herdr-host.ts';
import { makeHerdrDouble } from '../doubles/herdr/fixture.ts';
import { describeHostContract } from './host-contract.ts';

describeHostContract('herdr', async () => {
  const double = makeHerdrDouble('herdr-contract');
  const host = createHerdrHost(double.hostOptions());
  await host.ensureServer();
  return {
    host,
    async cleanup() {
      await host.stopServer();
      await double.cleanup();
    },
  };
});
