/**
 * The items of a brief the person decides on, each with its id (issue 40): the list items of
 * `## Requirements` (R-), `## Browser checks` (C-) and `## Questions` / `## Open questions` /
 * `## Open decisions` (Q-). A line that starts with its own id (`- C-002: …`) keeps it; the others
 * are numbered by their place, skipping the ids already taken. Headings inside fenced blocks do
 * not count (brief-sections.ts). Pure: text in, items out.
 */
import { briefLines } from './brief-sections.ts';

const FENCE = /^\s*```/;
const HEADING = /^\s*(#{1,6})\s+(.*?)\s*#*\s*$/;
/** A list item: `- `, `* `, `+ ` or `1. ` / `1) `, its text after. */
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(.*\S)\s*$/;
/** A bare line that starts with an id (`C-001 …`) counts as an item too. */
const BARE_ID = /^\s{0,3}([RCQ]-\d{3,4})\b/;

export type BriefItemLetter = 'R' | 'C' | 'Q';

const SECTIONS: Record<BriefItemLetter, RegExp> = {
  R: /^requirements$/i,
  C: /^browser checks$/i,
  Q: /^(?:open )?(?:questions|decisions)$/i,
};

export interface BriefItem {
  id: string;
  letter: BriefItemLetter;
  /** The line's text without its bullet and its own id. */
  text: string;
}

/** The most items of one kind a brief yields (a page of forms, not a dump). */
export const ITEMS_PER_KIND_CAP = 200;

function pad(n: number): string {
  return String(n).padStart(3, '0');
}

/** Each kind's raw lines, in order, from the sections its heading names (every such section, outside fences). */
function sectionLines(text: string): Record<BriefItemLetter, string[]> {
  const out: Record<BriefItemLetter, string[]> = { R: [], C: [], Q: [] };
  let fenced = false;
  let open: BriefItemLetter | null = null;
  for (const line of briefLines(text)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const h = HEADING.exec(line);
    if (h) {
      // Only a level-2 heading opens a section; a deeper heading inside one ends it too (sub-parts are prose).
      open = null;
      if (h[1] === '##') {
        const name = h[2]!.replace(/[:.]$/, '').trim();
        for (const letter of Object.keys(SECTIONS) as BriefItemLetter[]) if (SECTIONS[letter].test(name)) open = letter;
      }
      continue;
    }
    if (open) {
      const item = LIST_ITEM.exec(line)?.[1] ?? (BARE_ID.test(line) ? line.trim() : null);
      if (item) out[open].push(item);
    }
  }
  return out;
}

/** Items of one kind: own ids kept (once), the rest numbered in order into the ids still free. */
function numbered(letter: BriefItemLetter, lines: string[]): BriefItem[] {
  const own = new RegExp(`^\\**(${letter}-\\d{3,4})\\**\\s*[:.)\\]-]?\\s*`);
  const parsed = lines.slice(0, ITEMS_PER_KIND_CAP).map((l): { id: string | null; text: string } => {
    const m = own.exec(l);
    return m ? { id: m[1]!, text: l.slice(m[0].length).trim() || l } : { id: null, text: l };
  });
  const taken = new Set<string>();
  for (const p of parsed) {
    if (p.id && taken.has(p.id)) p.id = null; // a repeated id is numbered like an unnamed line
    else if (p.id) taken.add(p.id);
  }
  let next = 1;
  return parsed.map((p) => {
    if (p.id) return { id: p.id, letter, text: p.text };
    while (taken.has(`${letter}-${pad(next)}`)) next++;
    const id = `${letter}-${pad(next)}`;
    taken.add(id);
    return { id, letter, text: p.text };
  });
}

export function briefItems(text: string): BriefItem[] {
  const lines = sectionLines(text);
  return [...numbered('R', lines.R), ...numbered('C', lines.C), ...numbered('Q', lines.Q)];
}

/** A browser check's line may authorise more than reading: `[interact]` lets the tool click and type for that check. */
export const INTERACT_MARK = /\[interact\]/i;

export interface BrowserCheckItem {
  id: string;
  text: string;
  /** The brief lets this check click and type (`[interact]` on its line); otherwise it only reads. */
  interact: boolean;
}

/** The brief's `## Browser checks`, each with its id and whether it may interact. */
export function browserChecksOf(text: string): BrowserCheckItem[] {
  return briefItems(text)
    .filter((i) => i.letter === 'C')
    .map((i) => ({ id: i.id, text: i.text.replace(INTERACT_MARK, '').replace(/\s+/g, ' ').trim(), interact: INTERACT_MARK.test(i.text) }));
}
