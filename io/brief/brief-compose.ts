/**
 * Lists the read-first copies in the brief itself, so the worker reads them from the one
 * directory it is granted. The composed lines are kingshand's own exact wording: re-dispatch is
 * idempotent by whole-line comparison, and a bullet for a standing file that has since been
 * deleted is removed only when it is still word for word ours (prose is never parsed).
 */
import { join } from 'node:path';
import { briefLines, parseBrief } from './brief-sections.ts';
import type { StandingKind } from './standing-files.ts';

export const LEAD_IN = 'Files kingshand copied for this task (read each in full before you start; if one cannot be read, stop and say so in your report):';

export interface Attachment {
  kind: 'read' | StandingKind;
  /** Original file (shown so the reader knows what the copy stands for). */
  source: string;
  leaf: string;
}

export function copyPath(briefDir: string, leaf: string): string {
  return join(briefDir, 'read-first', leaf);
}

export function attachmentLine(briefDir: string, a: Attachment, project: string): string {
  const copy = copyPath(briefDir, a.leaf);
  if (a.kind === 'done') return `- \`${copy}\` - standing definition of done for ${project}: work it line by line in your report (pass / fixed / n/a with a reason).`;
  if (a.kind === 'rules') return `- \`${copy}\` - standing rules for ${project}; on conflict, this brief wins over them.`;
  return `- \`${copy}\` - copy of \`${a.source}\`.`;
}

/** The bullet a standing file of this kind would have had (its source is not part of the wording). */
function standingLine(briefDir: string, project: string, kind: StandingKind): string {
  return attachmentLine(briefDir, { kind, source: '', leaf: `${kind}-${project}.md` }, project);
}

/**
 * Returns the brief text with one line per attachment in the first `## Read first` section.
 * The brief must already have that section (checked before this is called).
 */
export function composeBrief(text: string, args: { briefDir: string; project: string; attachments: readonly Attachment[]; detachedStanding: readonly StandingKind[] }): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const shape = parseBrief(text);
  if (!shape.readFirst) throw new Error('composeBrief: the brief has no "## Read first" section (validate first)');
  const stale = new Set(args.detachedStanding.map((k) => standingLine(args.briefDir, args.project, k)));
  const lines = briefLines(text);
  const section = lines.slice(shape.readFirst.heading + 1, shape.readFirst.end).filter((l) => !stale.has(l));
  const present = new Set(section);
  const wanted = args.attachments.map((a) => attachmentLine(args.briefDir, a, args.project)).filter((l) => !present.has(l));
  let body = section;
  if (wanted.length > 0) {
    const lead = section.indexOf(LEAD_IN);
    if (lead >= 0) {
      // After the existing lead-in and the bullets already under it.
      let at = lead + 1;
      while (at < section.length && section[at]!.startsWith('- `')) at++;
      body = [...section.slice(0, at), ...wanted, ...section.slice(at)];
    } else {
      // At the end of the section, before its trailing blank lines.
      let at = section.length;
      while (at > 0 && section[at - 1]!.trim() === '') at--;
      const gap = at > 0 ? [''] : [];
      body = [...section.slice(0, at), ...gap, LEAD_IN, ...wanted, ...section.slice(at)];
      if (at === section.length) body.push('');
    }
  }
  const out = [...lines.slice(0, shape.readFirst.heading + 1), ...body, ...lines.slice(shape.readFirst.end)];
  return out.join(eol);
}
