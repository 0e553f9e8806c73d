/**
 * The question a blocked worker asks, as a person would read it off the screen: the lowest row
 * that ends with a question mark ("Which database should the fake project use?", "Do you want
 * to proceed?"). For the fleet row and the worker's head; null when no row asks anything, and
 * the page then shows the screen's last lines instead.
 */
import type { Screen } from '../../io/screen/types.ts';

const DECORATION = /^[\s│┃|>❯☐☒✔·•*-]+|[\s│┃|]+$/gu;

export function questionOf(screen: Screen): string | null {
  for (let i = screen.lines.length - 1; i >= 0; i--) {
    const text = (screen.lines[i]?.text ?? '').replace(DECORATION, '').trim();
    if (text.length >= 8 && text.endsWith('?')) return text;
  }
  return null;
}
