/** Gemini CLI launch setup: what dispatch writes before the agent starts, and how it is found. */
export { GEMINI_CLI, GEMINI_PINNED } from './binary.ts';
export { seedGeminiTrust, trustedFoldersPathOf, geminiHomeOf, type GeminiTrustResult } from './trusted-folders.ts';
export { writeGeminiSettings, mergeGeminiSettings, WORKSPACE_SETTINGS, WITNESS_HOOK_NAME } from './workspace-settings.ts';
export { writeDenyPolicy, denyPolicyText, DENY_POLICY_FILE } from './deny-policy.ts';
export { geminiWitnessHooks, GEMINI_WITNESS_EVENTS } from './hooks.ts';
export { geminiApprovalMode, geminiLaunchArgs, geminiPostureGap } from './posture.ts';
