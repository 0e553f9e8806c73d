/**
 * Transcript entries and how each one is drawn, after the captures 05-*, 06b, 07b, 08, 11, 11b.
 * Entries are separated by one blank row, except the ones that continue the block above them
 * (an `Interrupted` line sits right under the reply it cut short).
 */
import { CARET, COLOUR, ELBOW, NBSP, padLine, seg, wrapText, type Line } from './style.ts';

export type Entry =
  | { kind: 'prompt'; text: string }
  | { kind: 'reply'; text: string; tone?: 'normal' | 'error' }
  | { kind: 'tool'; description: string; command: string }
  | { kind: 'ran'; count: number }
  | { kind: 'did-not-run'; command: string }
  | { kind: 'interrupted' }
  | { kind: 'answered'; question: string; answer: string }
  | { kind: 'write'; path: string; lines: number }
  | { kind: 'finished'; verb: string; seconds: number; at: string }
  | { kind: 'note'; text: string };

const GREY = { fg: COLOUR.grey };

/** Entries drawn as a continuation of the previous block (no blank row before them). */
export function continuesBlock(entry: Entry): boolean {
  return entry.kind === 'interrupted';
}

/** First row gets `first`, the others `rest` (both the same width), text wrapped to fit. */
function wrapped(text: string, cols: number, prefixWidth: number): string[] {
  return wrapText(text, Math.max(1, cols - prefixWidth));
}

function bulletLines(text: string, cols: number, bulletStyle: { fg: string }, textStyle?: { fg: string }): Line[] {
  if (text === '') return [[seg('\u25CF', bulletStyle)]];
  return wrapped(text, cols, 2).map((row, i) => (i === 0 ? [seg('\u25CF', bulletStyle), seg(` ${row}`, textStyle)] : [seg(`  ${row}`, textStyle)]));
}

export function entryLines(entry: Entry, cols: number, classic = false): Line[] {
  switch (entry.kind) {
    case 'prompt': {
      // An echoed prompt: ❯ + PLAIN space on a grey background painted across the row.
      const bg = { bg: COLOUR.promptBg };
      return wrapped(entry.text, cols, 2).map((row, i) =>
        padLine([seg(i === 0 ? `${CARET} ` : '  ', bg), seg(row, { fg: COLOUR.white, bg: COLOUR.promptBg })], cols, bg),
      );
    }
    case 'reply':
      return entry.tone === 'error'
        ? bulletLines(entry.text, cols, { fg: COLOUR.yellow }, { fg: COLOUR.yellow })
        : bulletLines(entry.text, cols, { fg: COLOUR.white });
    case 'tool':
      // Classic shows the call itself while permission is pending; fullscreen its description.
      if (classic) return [[seg('\u25CF', GREY), seg(' '), seg('Bash', { bold: true }), seg(`(${entry.command})`)], [seg(`  ${ELBOW}  Waiting\u2026`, GREY)]];
      return [
        [seg(' ', GREY), seg(` ${entry.description}`)],
        [seg(`  ${ELBOW}  $ ${entry.command}`, GREY)],
      ];
    case 'ran':
      return [[seg('  '), seg('Ran ', GREY), seg(String(entry.count), { bold: true, fg: COLOUR.grey }), seg(` shell command${entry.count === 1 ? '' : 's'}`, GREY)]];
    case 'did-not-run':
      return [
        [seg('  '), seg('Did not run 1 call', GREY)],
        [seg(`  ${ELBOW}  $ ${entry.command}`, GREY)],
      ];
    case 'interrupted':
      return [[seg(`  ${ELBOW} ${NBSP}Interrupted \u00B7 What should Claude do instead?`, GREY)]];
    case 'answered':
      return [
        [seg('\u25CF', GREY), seg(" Answered Claude's questions:")],
        [seg(`  ${ELBOW} ${NBSP}\u00B7 ${entry.question} \u2192 ${entry.answer}`, GREY)],
      ];
    case 'write':
      return [
        [seg('\u25CF', { fg: COLOUR.white }), seg(' '), seg('Write', { bold: true }), seg(`(${entry.path})`)],
        [seg(`  ${ELBOW}  Wrote ${entry.lines} lines to ${entry.path}`, GREY)],
      ];
    case 'finished':
      return [[seg('\u273B', GREY), seg(' '), seg(`${entry.verb} for ${entry.seconds}s \u00B7 done ${entry.at}`, GREY)]];
    case 'note':
      return wrapped(entry.text, cols, 5).map((row, i) => [seg(i === 0 ? `  ${ELBOW}  ${row}` : `     ${row}`, GREY)]);
  }
}

/** All entries as rows, each block preceded by one blank row (the margin the real layout keeps). */
export function transcriptLines(entries: readonly Entry[], cols: number, classic = false): Line[] {
  const out: Line[] = [];
  for (const entry of entries) {
    if (!continuesBlock(entry)) out.push([]);
    out.push(...entryLines(entry, cols, classic));
  }
  return out;
}
