/**
 * The question a blocked worker asks, lifted from its visible screen so a person (through the
 * Hand) can be told it word for word. Pure: a screen's text in, a line out.
 *
 * A menu (AskUserQuestion) or a permission prompt draws its options as `❯ 1. …` / `  2. …`; the
 * question is the last line ending in "?" above the first option. Without options, the last
 * line ending in "?" anywhere on the screen.
 */
const OPTION = /^\s*(?:❯\s*)?1\.\s/;

/** A row's frame and markers (box sides, the cursor, a checkbox, a bullet), not its words. */
const DECORATION = /^[\s│┃|>❯☐☒✔·•*-]+|[\s│┃|]+$/gu;

export function questionOf(screen: string): string | null {
  const lines = screen.split('\n').map((l) => l.replace(/\s+$/, ''));
  const firstOption = lines.findIndex((l) => OPTION.test(l));
  const above = firstOption >= 0 ? lines.slice(0, firstOption) : lines;
  for (let i = above.length - 1; i >= 0; i--) {
    const t = above[i]!.replace(DECORATION, '').trim();
    if (t.endsWith('?')) return t;
  }
  return null;
}

/** The option lines under the question (`1. SQLite`, …), at most `max`. */
export function optionsOf(screen: string, max = 6): string[] {
  const out: string[] = [];
  for (const raw of screen.split('\n')) {
    const m = /^\s*(?:❯\s*)?(\d+)\.\s+(.+?)\s*$/.exec(raw);
    if (m && out.length < max) out.push(`${m[1]}. ${m[2]}`);
  }
  return out;
}
