/** io/git's public surface: what dispatch, landing and teardown call. */
export { isGitWorkTree, repoFacts, repoTopLevel, type RepoFacts, type WorkTreeAnswer } from './work-tree.ts';
export { resolveBaseRef, resolveBaseRefAt, isWorkerBranchName, type BaseRefResolution, type BaseRefSource } from './base-ref.ts';
export { parseDeclaredBaseBranch, readDeclaredBaseBranch, NO_MISTAKES_FILE, type DeclaredBaseBranch } from './declared-base-branch.ts';
export { createWorktree, type WorkerWorktree, type WorktreeAction, type WorktreeLane } from './worktree-create.ts';
export { checkWorktreeSlot } from './worktree-slot.ts';
export { removeWorktree, type RemoveOutcome } from './worktree-remove.ts';
export { listWorktrees, findRegisteredWorktree, pruneWorktrees, parseWorktreeList, type RegisteredWorktree } from './worktree-list.ts';
export { validateWorkerId, workerBranch, workerWorktreePath, samePath, canonicalPath, WORKTREES_DIR } from './worker-names.ts';
export { ensureLocalExcludes, KINGSHAND_EXCLUDES } from './local-exclude.ts';
export { gatherLandingEvidence, evidenceRefusal, scanAttribution, landingVerdict, ATTRIBUTION, type LandingEvidence, type LandingVerdict, type AttributionHit } from './landing-evidence.ts';
export { landLocalOnly, landingTarget, fastForwardArgv, updateRefArgv, type LocalLanding } from './landing-local.ts';
export { planDirectPr, openDirectPr, remoteHasBranch, pushArgv, prCreateArgv, prText, findExecutable, GH_INSTALL_HINT, type PrPlan } from './landing-pr.ts';
export { teardownWorker, type TeardownPorts, type TeardownOutcome } from './landing-teardown.ts';
export { installBaseGuard, baseGuardScript, BASE_GUARD_MARK, type BaseGuardOutcome } from './base-guard.ts';
export { gitCommonDir } from './common-dir.ts';
