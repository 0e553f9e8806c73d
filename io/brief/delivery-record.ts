/**
 * A worker's delivery record: how its task ships (its posture's path, the review gate's command,
 * a quick or read-only dispatch), written by dispatch into the daemon's own brief directory
 * (<state>/briefs/<id>.delivery.json, never the worker's: a worker that could rewrite it would
 * choose how its own work ships). Read as a stranger's file all the same (never through a link,
 * capped); an unreadable record is no record.
 */
import { dirname, join } from 'node:path';
import { readUntrustedFileSync } from '../fs/untrusted-file.ts';
import { briefCopyPathOf } from './worker-layout.ts';
import type { Delivery } from '../../contract/methods.ts';

/** Where the delivery record of the worker whose brief is `briefPath` is kept (beside the daemon's brief copy). */
export function deliveryPathOf(briefPath: string): string {
  return briefCopyPathOf(briefPath).replace(/\.md$/, '.delivery.json');
}

/** The delivery record; a worker dispatched before the record moved has it beside its brief. */
export function readDelivery(briefPath: string): Delivery | null {
  let r = readUntrustedFileSync(deliveryPathOf(briefPath), { maxBytes: 64 * 1024 });
  if (r.kind === 'absent') r = readUntrustedFileSync(join(dirname(briefPath), 'delivery.json'), { maxBytes: 64 * 1024 });
  if (r.kind !== 'read') return null;
  try {
    return JSON.parse(r.text) as Delivery;
  } catch {
    return null;
  }
}
