/**
 * The SGR parser keeps what the analysers need (dim, inverse, bold, italic, underline, colours)
 * from `tmux capture-pane -p -e` text, and skips every other escape without effect.
 */
import { describe, expect, it } from 'vitest';
import { parseAnsi, parsePlain, type Span } from '../../io/screen/index.ts';
import { BOX, NBSP, fixtureText } from './helpers.ts';

const E = '\x1b[';

function spansOf(text: string, row = 0): Span[] {
  return parseAnsi(text).lines[row]!.spans ?? [];
}

describe('SGR codes set and clear the attributes', () => {
  it('1 2 3 4 7 set bold, dim, italic, underline, inverse; 0 clears all', () => {
    expect(spansOf(`${E}1mB${E}2mD${E}3mI${E}4mU${E}7mV${E}0mP`)).toEqual([
      { text: 'B', attrs: { bold: true } },
      { text: 'D', attrs: { bold: true, dim: true } },
      { text: 'I', attrs: { bold: true, dim: true, italic: true } },
      { text: 'U', attrs: { bold: true, dim: true, italic: true, underline: true } },
      { text: 'V', attrs: { bold: true, dim: true, italic: true, underline: true, inverse: true } },
      { text: 'P', attrs: {} },
    ]);
  });

  it('22 23 24 27 clear their attribute only (22 clears bold and dim)', () => {
    expect(spansOf(`${E}1;2;3;4;7mA${E}22mB${E}23mC${E}24mD${E}27mE`)).toEqual([
      { text: 'A', attrs: { bold: true, dim: true, italic: true, underline: true, inverse: true } },
      { text: 'B', attrs: { italic: true, underline: true, inverse: true } },
      { text: 'C', attrs: { underline: true, inverse: true } },
      { text: 'D', attrs: { inverse: true } },
      { text: 'E', attrs: {} },
    ]);
  });

  it('256-colour and truecolour, then 39/49 back to default', () => {
    expect(spansOf(`${E}38;5;244mA${E}48;5;237mB${E}38;2;10;20;30mC${E}39mD${E}49mE${E}31;42mF`)).toEqual([
      { text: 'A', attrs: { fg: '38;5;244' } },
      { text: 'B', attrs: { fg: '38;5;244', bg: '48;5;237' } },
      { text: 'C', attrs: { fg: '38;2;10;20;30', bg: '48;5;237' } },
      { text: 'D', attrs: { bg: '48;5;237' } },
      { text: 'E', attrs: {} },
      { text: 'F', attrs: { fg: '31', bg: '42' } },
    ]);
  });

  it('combined `0;2` resets then dims (how Claude Code draws a suggestion)', () => {
    expect(spansOf(`${BOX}${E}7mr${E}0;2m${E}39m${E}49mun the tests${E}0m`)).toEqual([
      { text: BOX, attrs: {} },
      { text: 'r', attrs: { inverse: true } },
      { text: 'un the tests', attrs: { dim: true } },
    ]);
  });

  it('the colon form 38:2::r:g:b and an empty parameter list (ESC[m = reset)', () => {
    expect(spansOf(`${E}38:2::1:2:3mA${E}mB`)).toEqual([
      { text: 'A', attrs: { fg: '38;2;1;2;3' } },
      { text: 'B', attrs: {} },
    ]);
  });

  it('the rendition carries across line ends, as tmux prints it', () => {
    const screen = parseAnsi(`${E}2mResume this session with:\nclaude --resume abc\n${E}0mPane is dead\n`);
    expect(screen.lines.map((l) => l.spans)).toEqual([
      [{ text: 'Resume this session with:', attrs: { dim: true } }],
      [{ text: 'claude --resume abc', attrs: { dim: true } }],
      [{ text: 'Pane is dead', attrs: {} }],
    ]);
  });
});

describe('other escapes are skipped safely', () => {
  it('cursor moves, modes, titles and charset designations leave no trace', () => {
    const text = `${E}2J${E}?1049h${E}5;10H\x1b]0;✳ Claude Code\x07\x1b(Bhello${E}K \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\`;
    expect(parseAnsi(text).lines.map((l) => l.text)).toEqual(['hello link']);
  });

  it('private sequences ending in m (ESC[>4;2m) are not renditions', () => {
    expect(spansOf(`${E}>4;2mA`)).toEqual([{ text: 'A', attrs: {} }]);
  });

  it('an unterminated OSC ends at the line end instead of eating the screen', () => {
    expect(parseAnsi(`a\x1b]0;title without end\nsecond row\n`).lines.map((l) => l.text)).toEqual(['a', 'second row']);
  });

  it('a lone ESC at the end, CR, and C1 controls draw nothing', () => {
    expect(parseAnsi(`one\r\ntwo\u009b\x1b`).lines.map((l) => l.text)).toEqual(['one', 'two']);
  });
});

describe('rows are trimmed like the plain parser and the viewport is the bottom', () => {
  it('trailing U+0020 is trimmed (also when attributed), a trailing NBSP is kept, spans match the text', () => {
    const screen = parseAnsi(`${E}39m${BOX}${E}7m ${E}0m   \nx${NBSP}\n`);
    expect(screen.lines.map((l) => l.text)).toEqual([BOX, `x${NBSP}`]);
    for (const line of screen.lines) expect((line.spans ?? []).map((s) => s.text).join('')).toBe(line.text);
  });

  it('every SGR capture has exactly the text of its plain twin', () => {
    for (const name of ['2.1.332/06-permission-bash', '2.1.332/09-prompt-suggestion', '2.1.332-classic/10-after-exit']) {
      const ansi = parseAnsi(fixtureText(`${name}.ansi.txt`)).lines.map((l) => l.text);
      const plain = parsePlain(fixtureText(`${name}.txt`)).lines.map((l) => l.text);
      expect(ansi, name).toEqual(plain);
    }
  });

  it('with rows given, only the bottom rows are the viewport', () => {
    const screen = parseAnsi('1\n2\n3\n4\n', { rows: 2, cols: 120 });
    expect([screen.rows, screen.cols, screen.lines.map((l) => l.text)]).toEqual([2, 120, ['3', '4']]);
    expect(parsePlain('1\n2\n3\n4\n', { rows: 2 }).lines.map((l) => l.text)).toEqual(['3', '4']);
  });

  it('size defaults to the widest row and the number of rows', () => {
    const screen = parseAnsi(`${E}1mabc${E}0m\nabcdef\n`);
    expect([screen.cols, screen.rows, screen.hasAttributes]).toEqual([6, 2, true]);
  });
});
