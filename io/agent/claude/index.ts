/** Claude Code launch setup: what dispatch writes before the agent starts. */
export { writeClaudeSettings, CLAUDE_PERMISSION_MODES, type ClaudePermissionMode, type WorktreeSettings } from './worktree-settings.ts';
export { seedTrust, trustKey, type TrustSeedResult } from './trust-seed.ts';
export { withClaudeConfigLock, CONFIG_LOCK_STALE_MS } from './config-lock.ts';
export {
  PERMISSION_POSTURES, DEFAULT_PERMISSION_POSTURE, parsePermissionPosture, describePosture, claudeModeOf, claudeLaunchArgs, denyRules, writePostureSettings, postureSettings, rootProblem,
  type PermissionPosture, type DenyListArgs,
} from './permissions.ts';
