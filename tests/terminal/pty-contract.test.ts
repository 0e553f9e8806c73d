import { createPtyHost } from '../../io/terminal/pty/pty-host.ts';
import { describeHostContract } from './host-contract.ts';

describeHostContract('pty', async () => {
  const host = createPtyHost();
  return { host, cleanup: () => host.dispose() };
});
