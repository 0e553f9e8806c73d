/**
 * The calibration's script: brings one running agent into each situation in turn, by what the
 * situation itself causes (pane-session.ts), then asks the screen reader what it sees and the
 * hook witness what it heard. A situation not reached within its bound is said so with what the
 * screen showed instead; the whole run is bounded (CALIBRATION_BUDGET_MS) and the situations left
 * when it runs out are said not reached, never skipped silently.
 */
import { held, holdAfter, NO_HOLD, type Hold } from './hold.ts';
import { SITUATION_TITLES, type CalibrationSituation, type SituationResult } from '../../contract/methods/calibration.ts';
import type { Key } from '../../contract/keys.ts';
import type { ScreenReading } from '../../contract/screen-reading.ts';
import type { Screen } from '../../io/screen/types.ts';
import type { CalibrationFake, CalibrationKit } from '../../io/agent/calibration-kit.ts';
import { CALIBRATION_DRAFT, describeExpectation, describeReading, expectationOf, meets } from './expectations.ts';
import type { PaneSession } from './pane-session.ts';
import type { WitnessListener } from './witness-listener.ts';

/** The whole calibration of one agent, start to exit (issue 39: at most a minute per agent). */
export const CALIBRATION_BUDGET_MS = 60_000;

/** What a screen is read with: the agent profile's reader for its version (a test hands a misreading one). */
export interface ScreenReader {
  analyse(screen: Screen): ScreenReading;
}

/** One situation's result and the screen it was judged on (kept for the evidence folder). */
export interface Judged {
  result: SituationResult;
  screen: Screen | null;
  reading: ScreenReading | null;
}

export interface DriveContext {
  session: PaneSession;
  fake: CalibrationFake;
  kit: CalibrationKit;
  reader: ScreenReader;
  witness: WitnessListener;
  /** Typed to end the agent (its profile's). */
  exitCommand: string;
  label: string;
  backend: 'tmux' | 'pty';
  /** When the run's budget ends (ms since the epoch), and how long that budget was (what a situation it cut short says). */
  deadline: number;
  budgetMs: number;
  /** Stops the run early (the daemon stopping, the caller gone): every wait ends at once. */
  signal?: AbortSignal;
  onJudged?(j: Judged): void;
}

/**
 * A situation's outcome: right when the reader held the right reading for its hold and the hook
 * witness (if it speaks there) agreed. One whose judging the run's bound (or a stop) cut short is
 * not reached, never wrong: the reader was not given its window, and "wrong" would blame it for
 * the clock (an OpenCode run on a loaded machine read its exit right and was failed for it).
 */
export function judgedOutcome(held: boolean, witnessOk: boolean | undefined, cutShort: boolean): 'right' | 'wrong' | 'not-reached' {
  if (held && witnessOk !== false) return 'right';
  return cutShort ? 'not-reached' : 'wrong';
}

/** Words the fake model streams for the slow reply: the turn has finished when the last ones are on screen. */
export const SLOW_REPLY = 'This calibration reply arrives slowly so the running turn shows, and it ends here now.';
const SLOW_END = 'ends here now';
const SLOW_MS = 3_000;
export const PERMISSION_FILE = 'calibration-permission.txt';
export const ERROR_MESSAGE = 'The fake API refused this turn on purpose (calibration).';

/** How long the reader is given, once a situation is on screen, to say it (it must hold HOLD_MS). */
const JUDGE_WINDOW_MS = 4_000;
const HOLD_MS = 400;
/**
 * How long a hook has to arrive after the situation was judged: a hook starts a Node process, and
 * Claude Code 2.1.332 sends its permission Notification about 6 s after the dialog is drawn.
 */
const WITNESS_WAIT_MS = 10_000;

type Brought =
  | { screen: Screen; sign?: (text: string) => boolean; window?: number }
  /** The host's own word decides (a pty draws no exit line: a worker's exit comes from the host's event). */
  | { screen: Screen | null; byHost: string }
  | { notReached: string }
  | { notApplicable: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `pred` every 100 ms until true or `ms` passed. */
async function until(pred: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() >= end) return false;
    await sleep(100);
  }
  return true;
}

const lastLines = (s: Screen | null) => (s ? s.lines.map((l) => l.text.trimEnd()).filter((t) => t.trim() !== '').slice(-3).join(' | ').slice(0, 200) : 'nothing readable');

export async function driveCalibration(ctx: DriveContext): Promise<Judged[]> {
  const { session: s, fake, kit } = ctx;
  const out: Judged[] = [];
  const left = (bound: number) => (ctx.signal?.aborted ? 0 : Math.max(0, Math.min(bound, ctx.deadline - Date.now())));

  /** Types `text`, sees it on screen, presses Enter until the agent's request reaches the fake (three tries). */
  async function submit(text: string): Promise<string | null> {
    const before = fake.turns();
    await s.type(text);
    if (!(await s.waitFor((t) => t.includes(text), left(10_000)))) return `the prompt ${JSON.stringify(text)} never showed in the box (10 s); the screen ended: ${lastLines(s.last)}`;
    await sleep(300); // an app draws the text before it takes the Enter (a dropped Enter otherwise)
    for (let i = 0; i < 3; i++) {
      await s.key('enter');
      if (await until(() => fake.turns() > before, left(5_000))) return null;
    }
    return `the agent sent no request for the prompt ${JSON.stringify(text)} (Enter pressed three times); the screen ended: ${lastLines(s.last)}`;
  }

  /** What the hook witness said since `since`, where the agent's witness speaks in this situation (null where it is silent). */
  async function heardWitness(situation: CalibrationSituation, since: number): Promise<SituationResult['witness']> {
    const word = kit.witness[situation];
    if (word === undefined) return null;
    await until(() => ctx.witness.wordsSince(since).includes(word), left(WITNESS_WAIT_MS));
    const heard = ctx.witness.wordsSince(since);
    return { expected: word, heard, ok: heard.includes(word) };
  }

  async function judge(situation: CalibrationSituation, witnessSince: number, bring: () => Promise<Brought>): Promise<void> {
    const started = Date.now();
    const expected = expectationOf(situation);
    const base = { situation, expected: describeExpectation(expected) };
    const finish = (j: Judged) => {
      j.result.ms = Date.now() - started;
      out.push(j);
      ctx.onJudged?.(j);
    };
    if (ctx.signal?.aborted) {
      return finish({ result: { ...base, outcome: 'not-reached', read: null, witness: null, note: 'the calibration was stopped before it (the daemon stopping, or its caller gone)', ms: 0 }, screen: s.last, reading: null });
    }
    if (Date.now() >= ctx.deadline) {
      return finish({ result: { ...base, outcome: 'not-reached', read: null, witness: null, note: `the calibration's bound of ${ctx.budgetMs / 1000} s ran out before it`, ms: 0 }, screen: s.last, reading: null });
    }
    const brought = await bring();
    if ('notApplicable' in brought) return finish({ result: { ...base, outcome: 'not-applicable', read: null, witness: null, note: brought.notApplicable, ms: 0 }, screen: s.last, reading: null });
    if ('notReached' in brought) {
      const reading = s.last ? ctx.reader.analyse(s.last) : null;
      return finish({ result: { ...base, outcome: 'not-reached', read: reading ? describeReading(reading) : null, witness: null, note: brought.notReached, ms: 0 }, screen: s.last, reading });
    }
    if ('byHost' in brought) {
      const witness = await heardWitness(situation, witnessSince);
      const note = witness && !witness.ok ? `the hook witness did not say ${witness.expected} (heard: ${witness.heard.join(', ') || 'nothing'})` : null;
      return finish({ result: { ...base, outcome: note ? 'wrong' : 'right', read: brought.byHost, witness, note, ms: 0 }, screen: brought.screen, reading: null });
    }
    // The reader must say it, and keep saying it for HOLD_MS, while what brought it still holds.
    // The screen kept is the last one on which the situation held (what the reader was wrong about).
    let screen = brought.screen;
    let reading = ctx.reader.analyse(screen);
    const window = brought.window ?? JUDGE_WINDOW_MS;
    const allowed = left(window);
    const windowEnd = Date.now() + allowed;
    let right = false;
    let next: Screen | null = screen;
    let hold: Hold = NO_HOLD;
    for (;;) {
      // A read that failed shows nothing and is left out of the hold (hold.ts).
      if (next !== null) {
        const holds = brought.sign === undefined || brought.sign(next.lines.map((l) => l.text).join('\n'));
        if (holds) {
          screen = next;
          reading = ctx.reader.analyse(screen);
        }
        hold = holdAfter(hold, holds && meets(reading, expected), Date.now());
      }
      if (held(hold, Date.now(), HOLD_MS)) {
        right = true;
        break;
      }
      if (Date.now() >= windowEnd) break;
      await sleep(100);
      next = await s.read();
    }
    const witness = await heardWitness(situation, witnessSince);
    // Cut short: the reader's window by the bound (it never held), or the witness's wait (it held).
    const cut = ctx.signal?.aborted === true || (right ? Date.now() >= ctx.deadline : allowed < window);
    const outcome = judgedOutcome(right, witness?.ok, cut);
    const notes: string[] = [];
    if (outcome === 'not-reached') {
      const why = ctx.signal?.aborted ? 'the calibration was stopped' : `the calibration's bound of ${ctx.budgetMs / 1000} s ran out`;
      notes.push(`${why} while this was judged (the screen reader said ${describeReading(reading)})`);
    }
    else if (!right) notes.push(`the screen reader said ${describeReading(reading)} where the screen shows ${SITUATION_TITLES[situation]}`);
    if (outcome !== 'not-reached' && witness && !witness.ok) notes.push(`the hook witness did not say ${witness.expected} (heard: ${witness.heard.join(', ') || 'nothing'})`);
    finish({ result: { ...base, outcome, read: describeReading(reading), witness, note: notes.join('; ') || null, ms: 0 }, screen, reading });
  }

  const keys = async (list: readonly Key[]) => {
    for (const k of list) await s.key(k);
  };

  // first start: the seeded launch lands on its box, with nothing to answer before a prompt.
  await judge('first-start', Date.now(), async () => {
    const screen = await s.waitQuiet(1_000, left(30_000));
    return screen ? { screen, window: 8_000 } : { notReached: `the agent's first screen never held still for a second within 30 s; it ended: ${lastLines(s.last)}` };
  });

  // typed text: a draft in the box, not sent.
  await judge('typed-text', Date.now(), async () => {
    await s.type(CALIBRATION_DRAFT);
    const screen = await s.waitQuiet(500, left(10_000), (t) => t.includes(CALIBRATION_DRAFT));
    return screen ? { screen, sign: (t) => t.includes(CALIBRATION_DRAFT) } : { notReached: `the draft ${JSON.stringify(CALIBRATION_DRAFT)} never showed on screen within 10 s; it ended: ${lastLines(s.last)}` };
  });

  // idle: the draft taken back key by key, the box empty again.
  await judge('idle', Date.now(), async () => {
    for (let i = 0; i < CALIBRATION_DRAFT.length; i++) await s.key('backspace');
    const screen = await s.waitQuiet(500, left(10_000), (t) => !t.includes(CALIBRATION_DRAFT));
    return screen ? { screen } : { notReached: `the draft did not leave the screen within 10 s of ${CALIBRATION_DRAFT.length} backspaces; it ended: ${lastLines(s.last)}` };
  });

  // working: a slow reply; read while it is still arriving.
  const submitted = Date.now();
  let slowSent: string | null = null;
  await judge('working', submitted, async () => {
    fake.next({ kind: 'slow', text: SLOW_REPLY, ms: SLOW_MS });
    slowSent = await submit('calibration: answer slowly');
    if (slowSent) return { notReached: slowSent };
    await sleep(800); // the agent draws its running turn
    const screen = await s.read();
    return screen ? { screen, sign: (t) => !t.includes(SLOW_END), window: 3_500 } : { notReached: 'the screen could not be read' };
  });

  // finished turn: the slow reply's end on screen, and the screen still.
  await judge('finished', submitted, async () => {
    if (slowSent) return { notReached: 'no turn ran (see working)' };
    const screen = await s.waitQuiet(800, left(20_000), (t) => t.includes(SLOW_END));
    return screen ? { screen, sign: (t) => t.includes(SLOW_END) } : { notReached: `the reply's last words ${JSON.stringify(SLOW_END)} never showed and held still within 20 s; the screen ended: ${lastLines(s.last)}` };
  });

  // permission dialog: a command the agent must ask about; allowed once afterwards.
  let turns = fake.turns();
  let asked = Date.now();
  await judge('permission', asked, async () => {
    fake.next({ kind: 'permission', file: PERMISSION_FILE });
    const failed = await submit('calibration: run a command');
    if (failed) return { notReached: failed };
    const ranItself = () => fake.toolResultAfter(turns) !== null;
    const screen = await s.waitHeld((t) => t.includes(PERMISSION_FILE), 800, left(20_000), ranItself);
    const ran = fake.toolResultAfter(turns);
    if (ran !== null) return { notReached: `${ctx.label} ran the command without asking the person (its result: ${JSON.stringify(String(ran).slice(0, 120))})` };
    return screen ? { screen, sign: (t) => t.includes(PERMISSION_FILE), ...(kit.permissionWindowMs ? { window: kit.permissionWindowMs } : {}) } : { notReached: `the command (${PERMISSION_FILE}) never held on screen within 20 s; the screen ended: ${lastLines(s.last)}` };
  });
  await keys(kit.allowKeys);
  await until(() => fake.toolResultAfter(turns) !== null, left(10_000));
  await s.waitQuiet(800, left(15_000));

  // question menu: a question with choices; left unanswered afterwards.
  turns = fake.turns();
  asked = Date.now();
  await judge('question', asked, async () => {
    fake.next({ kind: 'question' });
    const failed = await submit('calibration: ask me');
    if (failed) return { notReached: failed };
    const answeredItself = () => fake.toolResultAfter(turns) !== null;
    const screen = await s.waitHeld((t) => t.includes(kit.question), 800, left(20_000), answeredItself);
    const answered = fake.toolResultAfter(turns);
    if (answered !== null) return { notApplicable: `${ctx.label} answered its question tool itself, asking nobody: ${JSON.stringify(String(answered).slice(0, 160))}` };
    return screen ? { screen, sign: (t) => t.includes(kit.question) } : { notReached: `the question never held on screen within 20 s; the screen ended: ${lastLines(s.last)}` };
  });
  if (fake.toolResultAfter(turns) === null) {
    await keys(kit.leaveQuestionKeys);
    await sleep(300);
  }
  await s.waitQuiet(800, left(15_000));

  // API error: the API refuses the turn; the agent is back at its box with the error said.
  turns = fake.turns();
  const refused = Date.now();
  await judge('api-error', refused, async () => {
    fake.next({ kind: 'error', message: ERROR_MESSAGE });
    const failed = await submit('calibration: this turn fails');
    if (failed) return { notReached: failed };
    const screen = await s.waitQuiet(1_000, left(20_000));
    return screen ? { screen } : { notReached: `the screen never held still within 20 s after the API refused the turn; it ended: ${lastLines(s.last)}` };
  });

  // exit: the agent's own exit command ends the process.
  await judge('exit', Date.now(), async () => {
    await s.type(ctx.exitCommand);
    await s.waitFor((t) => t.includes(ctx.exitCommand), left(5_000));
    await sleep(300);
    await s.key('enter');
    if (!(await s.waitExit(left(15_000)))) return { notReached: `the agent did not end within 15 s of ${ctx.exitCommand}; the screen ended: ${lastLines(s.last)}` };
    const screen = (await s.waitQuiet(500, left(3_000))) ?? s.last;
    if (ctx.backend === 'pty') return { screen, byHost: `ended (status ${s.exitStatus() ?? 'unknown'}): a pty draws no exit line, so the host's exit event says it, as for a worker` };
    return screen ? { screen } : { notReached: 'the ended pane could not be read' };
  });
  return out;
}
