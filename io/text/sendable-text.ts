/**
 * What `hand send` may type: text, and nothing that acts as terminal control. `hello\x03\x03`
 * made the agent exit, ESC sequences arrived as arrow keys, and an embedded bracketed-paste end
 * marker (`\x1b[201~`) ended the paste early so the rest was read as keystrokes. Keys have their
 * own command (`hand keys`, one per call, screen read between); text may hold newlines and tabs.
 * Text that is empty or only whitespace is refused too: it would leave spaces in the box that a
 * screen reads as empty, and the next /exit would be typed after them.
 */
import { UsageError } from '../../contract/errors.ts';
import { escapeControls } from './escape-controls.ts';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/**
 * Characters a person cannot see that change what a reader sees (issue 43): zero-width ones, which
 * hide words inside others, and the bidirectional controls, which reorder a line on screen
 * (U+202E shows `txt.exe` as `exe.txt`). Typed into a worker they are text the person did not
 * see themselves write; a refusal names each by its code point, since quoting it shows nothing.
 */
export const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** `U+202E` for a character. */
export const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Throws naming the invisible characters of `text` (and where), for what types into a worker. */
export function refuseInvisible(text: string, what: string): void {
  const found = [...text.matchAll(new RegExp(INVISIBLE.source, 'g'))];
  if (found.length === 0) return;
  const named = [...new Set(found.map((m) => codePoint(m[0])))].join(', ');
  throw new UsageError('invisible-in-text', `${what} holds ${found.length === 1 ? 'a character' : `${found.length} characters`} a person cannot see (${named}, first at position ${found[0]!.index}); nothing was typed. Type the words without it.`, { codePoints: [...new Set(found.map((m) => codePoint(m[0])))], position: found[0]!.index });
}

export function checkSendableText(text: string, worker = '<id>'): string {
  const bad = CONTROL.exec(text);
  if (bad) {
    const shown = escapeControls(bad[0]);
    throw new UsageError(
      'control-in-text',
      `hand send types text only, and ${JSON.stringify(escapeControls(text))} holds the control character ${shown} at position ${bad.index}; nothing was sent. ` +
        `Press keys one per call with hand keys ${worker} <key> (ctrl-c, escape, enter, up, down, …).`,
      { position: bad.index, char: shown },
    );
  }
  refuseInvisible(text, 'the text');
  if (text.trim() === '') {
    throw new UsageError('empty-text', `hand send needs words to type, and the text is ${text === '' ? 'empty' : 'only whitespace'}; nothing was sent. Example: hand send ${worker} "run the tests"`, {});
  }
  return text;
}
