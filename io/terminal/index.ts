/**
 * io/terminal: the TerminalHost port and its implementations. Everything above this layer speaks
 * of panes, screens and keys; only the host files know a backend's command line.
 */
export type * from './types.ts';
export { KEY_NAMES } from './types.ts';
export { assertKey, describeKey, InvalidKeyError, keyBytes, parseKey, tmuxSendKeysArgs } from './keys.ts';
export { allowListEnv, buildWorkerEnv, isAllowedWorkerVar, CALLER_TERMINAL_MARKERS, PARENT_SESSION_MARKERS, type WorkerEnvOptions } from './worker-env.ts';
export { checkPaneSpec, DEFAULT_COLS, DEFAULT_ROWS, MIN_COLS } from './pane-spec.ts';
export {
  checkPromptBox,
  guardedSendKey,
  guardedSendText,
  sendKeysOneByOne,
  type BoxCheck,
  type GuardOptions,
  type KeyGuardOptions,
  type KeysOptions,
} from './guarded-send.ts';
export { createTmuxHost, type TmuxHost, type TmuxHostOptions } from './tmux/tmux-host.ts';
export { createPtyHost, type PtyHost, type PtyHostOptions } from './pty/pty-host.ts';
export { createHerdrHost, type HerdrHost, type HerdrHostOptions } from './herdr/herdr-host.ts';
