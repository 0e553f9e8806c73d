/**
 * Dialogs and menus, drawn after the captures 03-trust-dialog, 06-permission-bash,
 * 07-ask-user-question and 09b-slash-menu-exit. Every menu caret is ❯ + a PLAIN space: only the
 * live input box uses U+00A0, which is how a screen reader tells them apart.
 */
import { BLANK, CARET, COLOUR, ruleLine, seg, wrapText, type Line } from './style.ts';

const GREY = { fg: COLOUR.grey };
const BLUE = { fg: COLOUR.blue };

export interface PermissionView {
  description: string;
  command: string;
  cwd: string;
  caret: number;
}

export const PERMISSION_CHOICES = 4;

export function permissionLines(v: PermissionView, cols: number): Line[] {
  const labels: Line[] = [
    [seg('Yes')],
    [seg('Yes, and always allow access to '), seg(v.cwd, { bold: true }), seg(' from this project')],
    [seg('Yes, and switch to auto mode'), seg(' \u00B7 auto mode handles these prompts for you', GREY)],
    [seg('No')],
  ];
  const rows = labels.map((label, i): Line => {
    const number = seg(`${i + 1}. `, GREY);
    if (i === v.caret) {
      const text = label.map((s) => s.text).join('');
      return [seg(' '), seg(CARET, BLUE), seg(' '), number, seg(text, BLUE)];
    }
    return [seg('   '), number, ...label];
  });
  return [
    ruleLine(cols, COLOUR.blue),
    [seg(' '), seg('Bash command', { bold: true, fg: COLOUR.blue })],
    [seg(' '), seg('Tip: auto mode handles these prompts for you \u2014 choose "switch to auto mode" below', { bold: true })],
    [seg(' '), seg(v.description, GREY)],
    ruleLine(cols, COLOUR.dash, '\u254C'),
    [seg(` ${v.command}`)],
    ruleLine(cols, COLOUR.dash, '\u254C'),
    [seg(' Do you want to proceed?')],
    ...rows,
    BLANK,
    [seg(' '), seg('Esc to cancel \u00B7 Tab to amend', GREY)],
  ];
}

export interface QuestionOption {
  label: string;
  description: string;
}

export interface QuestionView {
  header: string;
  question: string;
  options: QuestionOption[];
  caret: number;
  /** Free text typed on the `Type something.` row. */
  typed: string;
}

/** Rows: the options, then `Type something.`, then (below a rule) `Chat about this`. */
export function questionChoiceCount(v: { options: QuestionOption[] }): number {
  return v.options.length + 2;
}

export function questionLines(v: QuestionView, cols: number): Line[] {
  // style: 'option' greys the number only, 'hint' greys the whole row, 'plain' greys nothing.
  const row = (i: number, label: string, style: 'option' | 'hint' | 'plain' = 'option'): Line => {
    const number = `${i + 1}.`;
    if (i === v.caret) return [seg(CARET, BLUE), seg(' '), seg(number, GREY), seg(' '), seg(label, BLUE)];
    if (style === 'hint') return [seg('  '), seg(`${number} ${label}`, GREY)];
    if (style === 'plain') return [seg(`  ${number} ${label}`)];
    return [seg('  '), seg(number, GREY), seg(` ${label}`)];
  };
  const lines: Line[] = [
    ruleLine(cols, COLOUR.grey),
    [seg(` \u2610 ${v.header} `, { fg: COLOUR.chipFg, bg: COLOUR.chipBg })],
    BLANK,
    [seg(v.question, { bold: true, fg: COLOUR.white })],
    BLANK,
  ];
  v.options.forEach((o, i) => {
    lines.push(row(i, o.label), [seg('     '), seg(o.description, GREY)]);
  });
  const typeIndex = v.options.length;
  lines.push(v.typed ? row(typeIndex, v.typed) : row(typeIndex, 'Type something.', 'hint'));
  lines.push(ruleLine(cols, COLOUR.grey));
  lines.push(row(typeIndex + 1, 'Chat about this', 'plain'));
  lines.push(BLANK, [seg('Enter to select \u00B7 \u2191/\u2193 to navigate \u00B7 Esc to cancel', GREY)]);
  return lines;
}

export function trustLines(path: string, caret: number, cols: number): Line[] {
  const warning =
    'Quick safety check: Is this a project you created or one you trust? (Like your own code, a well-known open source ' +
    "project, or work from your team). If not, take a moment to review what's in this folder first.";
  const choices = ['No, exit', 'Yes, I trust this folder'].map((label, i): Line =>
    i === caret ? [seg(' '), seg(CARET, BLUE), seg(' '), seg(label, BLUE)] : [seg(`   ${label}`)],
  );
  return [
    ruleLine(cols, COLOUR.yellow),
    [seg(' '), seg('Accessing workspace:', { bold: true, fg: COLOUR.yellow })],
    BLANK,
    [seg(' '), seg(path, { bold: true })],
    BLANK,
    ...wrapText(warning, cols - 2).map((row): Line => [seg(` ${row}`)]),
    BLANK,
    [seg(" Claude Code'll be able to read, edit, and execute files here.")],
    BLANK,
    [seg(' '), seg('Security guide', GREY)],
    BLANK,
    ...choices,
    BLANK,
    [seg(' '), seg('Enter to confirm \u00B7 Esc to cancel', GREY)],
  ];
}

export interface SlashCommand {
  name: string;
  description: string;
}

export const SLASH_COMMANDS: SlashCommand[] = [
  { name: '/exit', description: 'Exit the CLI' },
  { name: '/context', description: 'Show what fills the context' },
  { name: '/clear', description: 'Clear conversation history and free up context' },
  { name: '/help', description: 'Show help and available commands' },
];

/** Commands offered for the typed text: prefix matches first, padded with the rest to two rows. */
export function slashMatches(typed: string): SlashCommand[] {
  const hits = SLASH_COMMANDS.filter((c) => c.name.startsWith(typed));
  const rest = SLASH_COMMANDS.filter((c) => !hits.includes(c));
  return hits.length >= 2 ? hits : [...hits, ...rest].slice(0, 2);
}

export function slashMenuLines(commands: SlashCommand[], caret: number): Line[] {
  return commands.map((c, i): Line => {
    const pad = ' '.repeat(Math.max(1, 28 - c.name.length));
    if (i === caret) {
      const [word, ...tail] = c.description.split(' ');
      return [
        seg('  '),
        seg(`${CARET} /`, BLUE),
        seg(c.name.slice(1), { bold: true, fg: COLOUR.blue }),
        seg(pad, BLUE),
        seg(word ?? '', { bold: true, fg: COLOUR.blue }),
        seg(tail.length ? ` ${tail.join(' ')}` : '', BLUE),
      ];
    }
    return [seg('  '), seg(`  ${c.name}${pad}${c.description}`, GREY)];
  });
}
