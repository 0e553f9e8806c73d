/**
 * Finding Qwen Code and its version (npm-node-cli.ts). HAND_QWEN_BIN (absolute, in the daemon's
 * environment) picks another build, as HAND_GEMINI_BIN does; then the pinned node_modules/.bin/qwen;
 * then PATH. The npm package's `qwen` is its bundle, `<pkg>/cli.js`, a Node script (0.15.x: Node 20
 * or later); `qwen --version` makes `~/.qwen` in the home it is given.
 */
import { npmNodeCli } from '../npm-node-cli.ts';

/** The newest release that runs on Node 20 (0.21 and later ask for Node 22). */
export const QWEN_PINNED = '0.15.10';

export const QWEN_CLI = npmNodeCli({
  program: 'qwen', chosenVar: 'HAND_QWEN_BIN', packageName: '@qwen-code/qwen-code', pinned: QWEN_PINNED,
  packageRoot: '.', homeVar: 'QWEN_HOME', noRelaunchVar: 'QWEN_CODE_NO_RELAUNCH',
});
