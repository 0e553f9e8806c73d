/**
 * A worker's browser checks as its landing evidence carries them (issue 40): the checks its brief
 * asked for, read from the daemon's copy of the brief as dispatched, judged against the record in
 * its report directory — read as a stranger's file (no link followed, no FIFO waited on, capped).
 */
import { dirname } from 'node:path';
import type { BrowserChecksVerdict } from '../../contract/browser-checks.ts';
import { readBriefAsDispatched } from '../brief/brief-copy.ts';
import { browserChecksOf } from '../brief/brief-items.ts';
import { readUntrustedFile } from '../fs/untrusted-file.ts';
import { checksPath, CHECKS_READ_CAP } from './checks-record.ts';
import { judgeBrowserChecks, type RecordRead } from './checks-verdict.ts';

export async function browserChecksEvidence(w: { id: string; briefPath: string; reportPath: string; host?: string | null }): Promise<BrowserChecksVerdict | null> {
  const brief = await readBriefAsDispatched(w.briefPath);
  if ('error' in brief) return null;
  const checks = browserChecksOf(brief.text);
  if (checks.length === 0) return null;
  const far = w.host && w.host !== 'local' ? w.host : undefined;
  if (far) return judgeBrowserChecks(checks, { kind: 'absent' }, { worker: w.id, farHost: far });
  const r = await readUntrustedFile(checksPath(dirname(w.reportPath)), { maxBytes: CHECKS_READ_CAP });
  const record: RecordRead = r.kind === 'read' ? { kind: 'read', text: r.text, truncated: r.truncated } : r.kind === 'absent' ? { kind: 'absent' } : { kind: 'refused', why: r.reason };
  return judgeBrowserChecks(checks, record, { worker: w.id });
}
