/** io/git's public surface: what dispatch, landing and teardown call. */
export { isGitWorkTree, repoTopLevel, type WorkTreeAnswer } from './work-tree.ts';
export { resolveBaseRef, isWorkerBranchName, type BaseRefResolution, type BaseRefSource } from './base-ref.ts';
export { parseDeclaredBaseBranch, readDeclaredBaseBranch, NO_MISTAKES_FILE, type DeclaredBaseBranch } from './declared-base-branch.ts';
export { createWorktree, type WorkerWorktree, type WorktreeAction } from './worktree-create.ts';
export { removeWorktree, type RemoveOutcome } from './worktree-remove.ts';
export { listWorktrees, findRegisteredWorktree, pruneWorktrees, parseWorktreeList, type RegisteredWorktree } from './worktree-list.ts';
export { validateWorkerId, workerBranch, workerWorktreePath, samePath, canonicalPath, WORKTREES_DIR } from './worker-names.ts';
export { ensureLocalExcludes, KINGSHAND_EXCLUDES } from './local-exclude.ts';
