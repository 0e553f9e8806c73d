/**
 * A CliWorld with a hand workspace initialised at `<root>/ws` against the world's state
 * directory, as the digest and MCP tests start from. The caller cleans the world up.
 */
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { HAND_BIN } from './hand-process.ts';
import { initWorkspace } from '../../io/workspace/init.ts';

export async function makeWorkspaceWorld(label: string): Promise<{ w: CliWorld; ws: string }> {
  const w = await makeCliWorld(label);
  const ws = join(w.root, 'ws');
  initWorkspace({ dir: ws, home: w.home, stateDir: w.home, node: process.execPath, handBin: HAND_BIN, version: 'test' });
  return { w, ws };
}
