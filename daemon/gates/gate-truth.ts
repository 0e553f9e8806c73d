/**
 * Truthful gate messages. A dispatch that rests at brief approval has created nothing but its
 * brief directory, and says so (with the brief's path and first lines); `hand approve` of a brief
 * answers once the worker has actually made its worktree, branch and pane (bounded), naming what
 * exists — never what was only asked for.
 */
import { pathThere } from '../../io/git/git-place.ts';
import { existsSync } from 'node:fs';
import { readBriefAsDispatchedSync } from '../../io/brief/brief-copy.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { waitFor } from '../../actors/wait-for.ts';
import type { CreatedAfterApproval, DispatchAnswer } from '../../contract/methods.ts';

const HEAD_LINES = 10;

/** The first lines of the brief as dispatched (the daemon's copy, never a worker's rewrite). */
export function briefHead(briefPath: string, lines = HEAD_LINES): string[] {
  const b = readBriefAsDispatchedSync(briefPath);
  // Blank lines say nothing in a preview: the first non-empty lines of the brief.
  return 'text' in b ? b.text.split('\n').filter((l) => l.trim() !== '').slice(0, lines) : [];
}

/** Fields added to a gated dispatch's answer. */
export function gatedDispatchFacts(v: WorkerViewLike): Pick<DispatchAnswer, 'gated' | 'waitingFor' | 'created' | 'briefHead'> {
  if (v.gate !== 'brief approval') return { gated: false };
  return {
    gated: true,
    waitingFor: 'brief approval',
    created: { briefDirectory: true, worktree: existsSync(v.worktree), branch: false, pane: false },
    briefHead: briefHead(v.briefPath),
  };
}

/** After a brief approval: waits (bounded) until the pane exists or the worker failed, then says what is there. */
export function createdAfterApproval(fleet: FleetHostApi, id: string, boundMs = 30_000): Promise<CreatedAfterApproval> {
  // Asked where git runs (git-place.ts): a far worker's worktree is on its host.
  const facts = async (v: WorkerViewLike) => {
    const there = await pathThere(v.worktree).catch(() => false);
    return {
      stage: v.stage,
      worktree: there ? v.worktree : null,
      branch: there ? v.branch : null,
      pane: v.paneId ? `${v.backend} pane ${v.paneId}${v.host !== 'local' ? ` on ${v.host}` : ''}` : null,
      problem: v.problem ?? null,
    };
  };
  const ready = (v: WorkerViewLike) => v.condition !== 'making' && v.condition !== 'gate';
  return waitFor(fleet, id, ready, { timeoutMs: boundMs }).then(async ({ view, by }): Promise<CreatedAfterApproval> =>
    by === 'accepted' && view ? facts(view) : { ...(view ? await facts(view) : {}), stillPreparing: true },
  );
}
