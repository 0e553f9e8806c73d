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
  if (text.trim() === '') {
    throw new UsageError('empty-text', `hand send needs words to type, and the text is ${text === '' ? 'empty' : 'only whitespace'}; nothing was sent. Example: hand send ${worker} "run the tests"`, {});
  }
  return text;
}
