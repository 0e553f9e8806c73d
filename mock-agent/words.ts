/** The random words of the real program's spinner, finished line and tips (seen in the captures). */

export const SPINNER_GLYPHS = ['\u00B7', '\u2722', '*', '\u2736', '\u273B', '\u273D'];

/** The pane title while working cycles half circles (2.1.228+); idle shows ✳. */
export const TITLE_FRAMES = ['\u25D0', '\u25D3', '\u25D1', '\u25D2'];
export const IDLE_TITLE = '\u2733 Claude Code';

const SPINNER_VERBS = ['Transfiguring', 'Galloping', 'Germinating', 'Tomfoolering', 'Flibbertigibbeting', 'Clauding', 'Undulating', 'Percolating'];
const FINISHED_VERBS = ['Cooked', 'Sautéed', 'Worked', 'Baked', 'Brewed', 'Churned', 'Cogitated'];
const TIPS = [
  'Start small, ask Claude for a plan, and check its edits',
  'Use /memory to view and manage Claude memory',
  'Set COLORTERM=truecolor for richer colors',
];

function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)] as T;
}

export const spinnerVerb = (): string => pick(SPINNER_VERBS);
export const finishedVerb = (): string => pick(FINISHED_VERBS);
export const tip = (): string => pick(TIPS);

/** `8:15 AM`: the clock time on the finished line. */
export function clockTime(date: Date): string {
  const h = date.getHours();
  const m = String(date.getMinutes()).padStart(2, '0');
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'AM' : 'PM'}`;
}
