/**
 * The folder a person attaches to a bug report when a calibration fails: each situation's screen
 * as it was judged, plain and with its renditions (SGR, the form `tmux capture-pane -e` writes,
 * so `hand screen inspect <file> --agent <agent>@<version>` reads it again exactly as the
 * calibration did), the result as JSON, and a README that says what is there. Written under the
 * state directory (`<state>/calibration/<agent>-<version>-<time>/`), 0700, files 0600.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CellAttributes, Screen } from '../../io/screen/types.ts';
import { SITUATION_TITLES, type AgentCalibration } from '../../contract/methods/calibration.ts';
import type { Judged } from './drive.ts';

function sgrOf(a: CellAttributes): string {
  const p = ['0'];
  if (a.bold) p.push('1');
  if (a.dim) p.push('2');
  if (a.italic) p.push('3');
  if (a.underline) p.push('4');
  if (a.inverse) p.push('7');
  if (a.fg) p.push(a.fg);
  if (a.bg) p.push(a.bg);
  return p.join(';');
}

/** The screen with its renditions; a cursor the trim removed is drawn back as one inverse blank. */
export function screenToAnsi(screen: Screen): string {
  return screen.lines
    .map((line) => {
      let out = line.spans ? line.spans.map((s) => `\x1b[${sgrOf(s.attrs)}m${s.text}`).join('') : line.text;
      if (line.cursorAt !== undefined) out += `\x1b[0m${' '.repeat(Math.max(0, line.cursorAt - line.text.length))}\x1b[7m `;
      return `${out}\x1b[0m`;
    })
    .join('\n') + '\n';
}

export const screenToPlain = (screen: Screen): string => screen.lines.map((l) => l.text).join('\n') + '\n';

/** The evidence file holding the end of the agent's own log. */
export const AGENT_LOG_FILE = 'agent-log.txt';

const stamp = (iso: string) => iso.replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z');

/** `agentLog`: the end of the agent's own log (agent-log.ts), kept as agent-log.txt. */
export function writeEvidence(root: string, result: AgentCalibration, judged: readonly Judged[], extra: string | null = null, agentLog: string | null = null): string {
  const dir = join(root, `${result.agent}-${result.version ?? 'unknown'}-${stamp(result.at)}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text, { mode: 0o600 });
  const files: string[] = [];
  judged.forEach((j, i) => {
    if (!j.screen) return;
    const base = `${String(i + 1).padStart(2, '0')}-${j.result.situation}`;
    write(`${base}.txt`, screenToPlain(j.screen));
    write(`${base}.ansi.txt`, screenToAnsi(j.screen));
    files.push(`${base}.txt / .ansi.txt  ${SITUATION_TITLES[j.result.situation]}: ${j.result.outcome}${j.result.read ? `, read ${j.result.read}` : ''}`);
  });
  write('result.json', `${JSON.stringify({ ...result, evidence: dir }, null, 2)}\n`);
  if (agentLog !== null) write(AGENT_LOG_FILE, agentLog);
  const agentAt = `${result.agent}${result.version ? `@${result.version}` : ''}`;
  write('README.txt', [
    `kingshand calibration of ${result.label} ${result.version ?? '(version unknown)'} (${result.binary ?? 'no binary'}), ${result.at}`,
    `verdict: ${result.verdict}; backend ${result.backend}; ${result.sandboxed ? "in kingshand's worker sandbox" : (result.sandboxNote ?? 'without a sandbox')}`,
    '',
    'Each situation\'s screen as it was judged (plain text, and with its SGR renditions):',
    ...files.map((f) => `  ${f}`),
    '',
    `Read one again as the calibration did:  hand screen inspect <file>.ansi.txt --agent ${agentAt}`,
    'result.json holds every situation: what it should read as, what was read, what the hook witness said.',
    ...(agentLog !== null ? [`${AGENT_LOG_FILE} holds the end of the agent's own log of the run.`] : []),
    ...(extra ? ['', extra] : []),
    '',
  ].join('\n'));
  return dir;
}
