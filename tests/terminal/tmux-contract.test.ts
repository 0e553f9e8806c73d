import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { describeHostContract } from './host-contract.ts';

describeHostContract('tmux', async () => {
  const dir = makeTempDir('tmux-contract');
  const host = createTmuxHost({ socketPath: `${dir.path}/tmux.sock` });
  await host.ensureServer();
  return {
    host,
    async cleanup() {
      await host.killServer();
      dir.cleanup();
    },
  };
});
