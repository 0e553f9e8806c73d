/**
 * Finding Gemini CLI and its version (npm-node-cli.ts). HAND_GEMINI_BIN (absolute, in the daemon's
 * environment) picks another build, as HAND_CLAUDE_BIN does for Claude Code (the second-version
 * corpus); then the pinned node_modules/.bin/gemini, so tests and a person run the same version;
 * then PATH. npm links `gemini` to `<pkg>/bundle/gemini.js`. The version is read from the file
 * because `gemini --version` costs a Node start of its bundle (~2 s) and writes into the person's
 * ~/.gemini (0.61.0 records the project in projects.json even for --version).
 */
import { npmNodeCli } from '../npm-node-cli.ts';

export const GEMINI_PINNED = '0.61.0';

export const GEMINI_CLI = npmNodeCli({
  program: 'gemini', chosenVar: 'HAND_GEMINI_BIN', packageName: '@google/gemini-cli', pinned: GEMINI_PINNED,
  packageRoot: '..', homeVar: 'GEMINI_CLI_HOME', noRelaunchVar: 'GEMINI_CLI_NO_RELAUNCH',
});
