/**
 * The live input box is `❯` U+276F followed by U+00A0 (control-plane §3.4, claude-code.md §6.2).
 * Every other caret — a menu row, an echoed prompt, the slash menu — has a plain space after it.
 */
import { describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, readPromptBox, screenFromLines } from '../../io/screen/index.ts';
import { BOX, CARET, NBSP, RULE, fixtureScreen, idleScreen, screenOf } from './helpers.ts';

describe('the live box is caret + NBSP; caret + plain space never is', () => {
  it('an empty box line (exactly caret + NBSP, as tmux prints it) reads as an empty box', () => {
    expect(readPromptBox(idleScreen())).toEqual({ text: '', kind: 'empty' });
  });

  it('a menu caret row `❯ 1. Yes` is never the box', () => {
    const screen = screenOf(RULE, ' Do you want to proceed?', ` ${CARET} 1. Yes`, '   2. No', ' Esc to cancel · Tab to amend');
    expect(readPromptBox(screen)).toBeNull();
    const reading = analyseScreen(screen);
    expect(reading.promptBox).toBeNull();
    expect(reading.awaitingInput).toBe(true);
    expect(reading.state).toBe('blocked');
  });

  it('echoed prompts and the slash menu (caret + space) above a live box are not read as it', () => {
    const screen = idleScreen({ transcript: [`${CARET} MODE:bash make a file`, `  ${CARET} /exit    Exit the CLI`], boxRow: `${BOX}/exit` });
    expect(readPromptBox(screen)).toEqual({ text: '/exit', kind: 'typed' });
  });

  it('a row with only carets and plain spaces is never the box, whatever follows', () => {
    for (const row of [`${CARET} run the tests`, `   ${CARET}  x`, `${CARET} 1. Yes`]) {
      expect(readPromptBox(screenOf(RULE, row, RULE)), JSON.stringify(row)).toBeNull();
    }
  });

  // Changed rule (docs/2026-12-01-structural-screen-reading.md): a capture path that trims row
  // ends (tmux capture-pane, herdr's trim_end) turns the empty box `❯`+NBSP into a bare `❯`.
  it('a bare caret (or caret + only whitespace) between the last two rules is the empty live box', () => {
    for (const row of [`${CARET} `, `${CARET}`, `${CARET}${NBSP}`, `${CARET}${NBSP} `]) {
      expect(readPromptBox(screenOf(RULE, row, RULE)), JSON.stringify(row)).toEqual({ text: '', kind: 'empty' });
    }
  });

  it('a bare caret outside a pair of rules is not the box', () => {
    for (const screen of [screenOf('● reply', `${CARET}`), screenOf(RULE, 'transcript', `${CARET}`)]) {
      expect(readPromptBox(screen)).toBeNull();
    }
  });

  it('worker output starting with `>` is never the box, even with a caret + NBSP after it', () => {
    for (const row of ['> quoted reply', `> ${BOX}run this`, `>${BOX}`]) {
      expect(readPromptBox(screenOf(RULE, row, RULE)), JSON.stringify(row)).toBeNull();
    }
  });

  it('a caret + NBSP deeper in a row is not the box', () => {
    expect(readPromptBox(screenOf(RULE, `output: ${BOX}text`, RULE))).toBeNull();
  });

  it('a `│` frame around the box row is trimmed', () => {
    const screen = screenOf('╭' + '─'.repeat(60) + '╮', `│ ${BOX}fix the parser   │`, '╰' + '─'.repeat(60) + '╯');
    expect(readPromptBox(screen)).toEqual({ text: 'fix the parser', kind: 'typed' });
  });

  // Changed rule: the live box is the one between the LAST two rules (position), so a dead box
  // left drawn higher up (classic renderer history) is not read as the live one.
  it('the box between the last two rules is the one read', () => {
    const screen = screenOf(RULE, `${BOX}first`, RULE, `${BOX}second`, RULE);
    expect(readPromptBox(screen)?.text).toBe('second');
  });

  it('without rules around any box row, the first box row top-down is the one read', () => {
    const screen = screenOf('● reply', `${BOX}first`, '  ⏸ manual mode on', `${BOX}second`);
    expect(readPromptBox(screen)?.text).toBe('first');
  });

  it('a multi-line input is read up to the closing rule, so an empty first line still shows the text', () => {
    const screen = idleScreen({ boxRow: `${BOX}\n  second line of the prompt` });
    expect(readPromptBox(screen)).toEqual({ text: '\nsecond line of the prompt', kind: 'typed' });
  });

  it('an xterm read (caret + NBSP + cursor space + padding) is the same empty box', () => {
    const rows = [RULE, `${BOX} ${' '.repeat(117)}`, RULE, '  ⏸ manual mode on · ? for shortcuts'].map((text) => ({ text: text.padEnd(120, ' ') }));
    const screen = screenFromLines(rows, 120, 40);
    expect(screen.lines[1]!.text).toBe(BOX);
    expect(readPromptBox(screen)).toEqual({ text: '', kind: 'empty' });
    expect(analyseScreen(screen).state).toBe('idle');
  });
});

describe('a suggestion is text in the box drawn dim; without attributes it is typed', () => {
  it('09-prompt-suggestion with SGR: "run the tests" is a suggestion', () => {
    expect(readPromptBox(fixtureScreen('2.1.332/09-prompt-suggestion.ansi.txt'))).toEqual({ text: 'run the tests', kind: 'suggestion' });
  });

  it('09-prompt-suggestion plain: the same text reads as typed (the refusing side)', () => {
    expect(readPromptBox(fixtureScreen('2.1.332/09-prompt-suggestion.txt'))).toEqual({ text: 'run the tests', kind: 'typed' });
  });

  it('typed text with the inverse cursor at its end is typed', () => {
    const screen = parseAnsi(`${RULE}\n\x1b[39m${BOX}half typed\x1b[7m \x1b[0m\n${RULE}\n`);
    expect(readPromptBox(screen)).toEqual({ text: 'half typed', kind: 'typed' });
  });

  it('typed text with the cursor moved onto its first letter is still typed (not dim)', () => {
    const screen = parseAnsi(`${RULE}\n${BOX}\x1b[7mh\x1b[0malf typed\n${RULE}\n`);
    expect(readPromptBox(screen)?.kind).toBe('typed');
  });

  it('text partly dim and partly plain is typed', () => {
    const screen = parseAnsi(`${RULE}\n${BOX}\x1b[7mr\x1b[0;2mun the\x1b[22m tests\n${RULE}\n`);
    expect(readPromptBox(screen)?.kind).toBe('typed');
  });

  it('a dim suggestion from xterm cells (screenFromLines with spans) is a suggestion', () => {
    const row = {
      text: `${BOX}run the tests`,
      spans: [
        { text: BOX, attrs: {} },
        { text: 'r', attrs: { inverse: true } },
        { text: 'un the tests', attrs: { dim: true } },
      ],
    };
    const screen = screenFromLines([{ text: RULE }, row, { text: RULE }], 120, 40);
    expect(readPromptBox(screen)).toEqual({ text: 'run the tests', kind: 'suggestion' });
  });
});

describe('placeholders are an empty box only when they match the known list exactly', () => {
  const exact = ['Press up to edit queued messages', 'Message @reviewer\u2026', 'Try "fix lint errors"', 'Try "how does <filepath> work?"'];
  it.each(exact)('placeholder %j reads as kind placeholder with promptBox ""', (hint) => {
    const reading = analyseScreen(idleScreen({ boxRow: `${BOX}${hint}` }));
    expect(reading.promptBox).toBe('');
    expect(reading.promptBoxKind).toBe('placeholder');
    expect(reading.state).toBe('idle');
  });

  const lookAlikes = [
    'Press up to edit queued messages, then land it',
    'press up to edit queued messages',
    'Message @reviewer about the failing test',
    'Message @\u2026',
    'Try "how do I log an error?" and report back',
    'Try ""',
    'Try "unterminated',
  ];
  it.each(lookAlikes)('look-alike %j is refused as typed text', (text) => {
    const reading = analyseScreen(idleScreen({ boxRow: `${BOX}${text}` }));
    expect(reading.promptBox).toBe(text);
    expect(reading.promptBoxKind).toBe('typed');
  });

  it('a placeholder on a second box line does not make the box empty', () => {
    const reading = analyseScreen(idleScreen({ boxRow: `${BOX}\n  Try "fix lint errors"` }));
    expect(reading.promptBoxKind).toBe('typed');
  });
});

describe('the box is a reported field, not a state', () => {
  it('text in the box is not awaiting input (04d)', () => {
    const reading = analyseScreen(fixtureScreen('2.1.332/04d-box-with-typed-text.txt'));
    expect(reading.awaitingInput).toBe(false);
    expect(reading.promptBox).toBe('half typed');
  });

  it('NBSP is kept on the box line by the plain parser (only U+0020 is trimmed)', () => {
    const screen = screenOf(`${BOX}   `, `x${NBSP}`);
    expect(screen.lines.map((l) => l.text)).toEqual([BOX, `x${NBSP}`]);
  });
});
