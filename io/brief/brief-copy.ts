/**
 * The daemon's own copy of a brief as it was dispatched (issue 37 item 2: a worker could rewrite
 * its brief.md, and the page and a relaunch then said what the worker wrote). Written atomically,
 * 0600, into `<state>/briefs/`, a directory no worker is given (worker-layout.ts); the review page,
 * the gates and a relaunch read it, and a relaunch writes the worker's brief.md again from it.
 */
import { dirname } from 'node:path';
import { createFileAtomically } from '../fs/atomic-create.ts';
import { makePrivateDir } from '../fs/private-files.ts';
import { readUntrustedFile, readUntrustedFileSync, refusalLine } from '../fs/untrusted-file.ts';
import { briefCopyPathOf } from './worker-layout.ts';

/** More than any brief dispatch takes (1 MiB) with the sections the daemon adds. */
const COPY_CAP = 4 << 20;

export type BriefText = { text: string; from: 'daemon-copy' | 'worker-directory' } | { error: string };

/** Keeps `text` as the brief of the worker whose brief.md is `briefPath`; returns the copy's path. */
export function keepBriefCopy(briefPath: string, text: string): string {
  const path = briefCopyPathOf(briefPath);
  makePrivateDir(dirname(path));
  createFileAtomically(path, text);
  return path;
}

/** What a read of the copy gives, as BriefText (a worker dispatched before the copy existed falls back to its brief.md, said so). */
function answer(copy: ReturnType<typeof readUntrustedFileSync>, fallback: () => ReturnType<typeof readUntrustedFileSync>, briefPath: string): BriefText {
  if (copy.kind === 'read') return { text: copy.text, from: 'daemon-copy' };
  if (copy.kind === 'refused') return { error: `the daemon's copy of the brief (${briefCopyPathOf(briefPath)}) is ${refusalLine(copy)}` };
  const old = fallback();
  if (old.kind === 'read') return { text: old.text, from: 'worker-directory' };
  if (old.kind === 'refused') return { error: `the brief at ${briefPath}: ${refusalLine(old)}` };
  return { error: `no brief at ${briefPath}` };
}

/** The brief as dispatched (the daemon's copy), or the worker's brief.md for a worker older than the copy. */
export async function readBriefAsDispatched(briefPath: string): Promise<BriefText> {
  const copy = await readUntrustedFile(briefCopyPathOf(briefPath), { maxBytes: COPY_CAP });
  const old = copy.kind === 'absent' ? await readUntrustedFile(briefPath, { maxBytes: COPY_CAP }) : null;
  return answer(copy, () => old!, briefPath);
}

/** The same, synchronously (the gates' previews). */
export function readBriefAsDispatchedSync(briefPath: string): BriefText {
  return answer(readUntrustedFileSync(briefCopyPathOf(briefPath), { maxBytes: COPY_CAP }), () => readUntrustedFileSync(briefPath, { maxBytes: COPY_CAP }), briefPath);
}
