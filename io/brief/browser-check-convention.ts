/**
 * How a worker runs its brief's browser checks (issue 40, the witness skill): a brief with a
 * `## Browser checks` section gets one more section, composed by kingshand, with the exact
 * command of the tool it gives the worker — this installation's node and `hand`, by absolute path
 * (the same as the worker's hooks), and the worker's own report directory — so the worker never
 * guesses a tool or writes the record itself. Appended once (re-staging adds nothing).
 */
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../root.ts';
import { shellCommand } from '../workspace/kit-settings.ts';
import { browserChecksOf } from './brief-items.ts';

export const CHECKS_HEADING = '## Running the browser checks';

export function browserCheckSection(outDir: string, firstId: string, node = process.execPath, handBin = join(KINGSHAND_ROOT, 'bin', 'hand.js')): string {
  const tool = shellCommand([node, handBin, 'browser-check']);
  const out = shellCommand([outDir]);
  return [
    CHECKS_HEADING,
    '',
    'kingshand gives you a real headless Chromium for the checks under "## Browser checks". For each one, bring up what it',
    'looks at (start the app on 127.0.0.1 if it needs one), then run it from your worktree, for example:',
    '',
    `    ${tool} ${firstId} --out ${out} --url http://127.0.0.1:<port>/<path> --expect '<text the page must show>'`,
    '',
    '`--selector <css>` reads one element instead of the whole page, `--expect-not <text>` names what must not show, and',
    '`--expect` repeats for more texts. A check only reads, unless its line says [interact]: then `--click <css>` and',
    "`--fill '<css>=<text>'` run first, in the order given. A check you cannot run is recorded with",
    `\`${tool} <id> --out ${out} --not-checked '<why>'\`. The tool records what it saw in checks.json there; never write`,
    'that file yourself: a check counts as verified only by the observation the tool records. Say in your report what each',
    'check showed.',
  ].join('\n');
}

/** The brief with the section appended when it has browser checks (once; unchanged otherwise). */
export function withBrowserCheckConvention(text: string, outDir: string): string {
  const checks = browserChecksOf(text);
  if (checks.length === 0) return text;
  if (text.split(/\r?\n/).some((l) => l.trim() === CHECKS_HEADING)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text.replace(/(\r?\n)*$/, '');
  return `${body}${eol}${eol}${browserCheckSection(outDir, checks[0]!.id).split('\n').join(eol)}${eol}`;
}
