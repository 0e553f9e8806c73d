/**
 * The check at the glass (io/terminal/guarded-send.ts) applies the same dialog rule the machine
 * applies to its last reading: a screen read just before typing that shows a dialog refuses the
 * text, whatever the box override says, and nothing reaches the pane. A free-text field under the
 * cursor takes the text (that is how a "Type something" answer is written).
 */
import { describe, expect, it } from 'vitest';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';
import type { Screen } from '../../io/screen/index.ts';
import { HandError } from '../../contract/errors.ts';
import { fixtureScreen, screenOf, RULE } from '../screen/helpers.ts';

function fakeHost(screen: Screen): { host: TerminalHost; typed: string[] } {
  const typed: string[] = [];
  const host = {
    readVisible: async () => ({ ok: true as const, screen }),
    sendText: async (_p: string, text: string) => void typed.push(text),
    sendKey: async () => {},
  } as unknown as TerminalHost;
  return { host, typed };
}

describe('the glass check refuses text into a dialog', () => {
  for (const capture of ['03-trust-dialog', '06-permission-bash', '07-ask-user-question']) {
    it(`${capture}: refused awaiting-input, quoting the dialog; nothing typed (also with the box override)`, async () => {
      const { host, typed } = fakeHost(fixtureScreen(`2.1.332/${capture}.ansi.txt`));
      for (const allowNonEmptyBox of [false, true]) {
        const err = (await guardedSendText(host, '%1', 'use whatever you think', { label: 'w1', allowNonEmptyBox }).catch((e: unknown) => e)) as HandError;
        expect(err).toBeInstanceOf(HandError);
        expect(err.code).toBe('awaiting-input');
        expect(err.message).toContain('hand keys w1');
        expect((err.details.dialog as { options: unknown[] }).options.length).toBeGreaterThanOrEqual(2);
      }
      expect(typed).toEqual([]);
    });
  }

  it('teardown is exempt: the /exit of a stop goes out even over a dialog', async () => {
    const { host, typed } = fakeHost(fixtureScreen('2.1.332/06-permission-bash.ansi.txt'));
    await guardedSendText(host, '%1', '/exit', { label: 'w1', allowNonEmptyBox: true, teardown: true });
    expect(typed).toEqual(['/exit']);
  });

  it('a cursor on the free-text row lets the text through: it is that field\'s answer', async () => {
    const wide = 'x'.repeat(60);
    const { host, typed } = fakeHost(
      screenOf(wide, RULE, ' ☐ Database ', '', 'Which database?', '', '  1. SQLite', '  2. Postgres', '❯ 3. Type something.', RULE, '  4. Chat about this', '', 'Enter to select · ↑/↓ to navigate · Esc to cancel'),
    );
    await guardedSendText(host, '%1', 'MariaDB please', { label: 'w1' });
    expect(typed).toEqual(['MariaDB please']);
  });
});
