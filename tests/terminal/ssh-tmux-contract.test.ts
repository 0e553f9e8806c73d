/**
 * The shared TerminalHost contract against tmux on "another machine": a real sshd on 127.0.0.1,
 * a second local account as the far side, its own tmux server on a private socket under its
 * state directory, driven over one multiplexed ssh connection (tests/harness/far-side-tmux.ts).
 */
import { FAR_NODE, startFarSideTmux } from '../harness/far-side-tmux.ts';
import { describeHostContract } from './host-contract.ts';

describeHostContract('tmux-over-ssh', async () => {
  const far = await startFarSideTmux();
  return {
    host: far.host,
    farSide: { mockProgram: far.mockProgram, node: FAR_NODE, ownDir: far.ownDir },
    cleanup: far.cleanup,
  };
});
