/**
 * What `hand doctor --calibrate` needs to know about one agent CLI to drive it through the
 * situations a worker meets (contract/methods/calibration.ts), beside what its profile already
 * says (launch, seed, screen reader): which fake model API it talks to, what a person's finished
 * setup pointed at that fake looks like in a throwaway HOME, how each scripted reply is said in
 * that API, what its hook witness says where, and which keys leave its dialogs. The engine that
 * drives it (daemon/calibration/) knows no agent: a new CLI brings its own kit.
 */
import type { HookWord } from '../../contract/methods/fleet.ts';
import type { CalibrationSituation } from '../../contract/methods/calibration.ts';
import type { Key } from '../../contract/keys.ts';
import { FAKE_QUESTION, FAKE_QUESTION_TWO_CHOICES } from '../../contract/fake-question.ts';

/** A reply the calibration asks the fake model for, said in each API by the kit. */
export type CalibrationReply =
  /** Plain text that takes about `ms` to arrive (the agent shows its running turn meanwhile). */
  | { kind: 'slow'; text: string; ms: number }
  /** A tool call that needs the person's permission: a shell command that creates `file` in the worktree. */
  | { kind: 'permission'; file: string }
  /** A tool call that puts a question with choices to the person. */
  | { kind: 'question' }
  /**
   * The API refuses the turn (HTTP 400) with this message, and every agent-loop request after it
   * until the next reply is scripted: an agent that retries a refused request is refused again.
   */
  | { kind: 'error'; message: string };

/** The fake model API of one calibration run, on 127.0.0.1. */
export interface CalibrationFake {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Agent-loop requests received so far (side requests such as titles do not count). */
  turns(): number;
  /**
   * The text of the first tool result the agent sent back in an agent-loop request after the
   * `afterTurn`-th one, or null: how the calibration sees that the agent answered a tool call
   * itself (ran a command without asking, refused a question tool) instead of asking the person.
   */
  toolResultAfter(afterTurn: number): string | null;
  /** The reply to the next agent-loop request. */
  next(reply: CalibrationReply): void;
  close(): Promise<void>;
}

/** The pause between the words of a `slow` reply that makes its text take about its `ms` to arrive. */
export function slowWordDelayMs(reply: { text: string; ms: number }): number {
  const words = reply.text.split(' ');
  return Math.max(1, Math.round(reply.ms / Math.max(1, words.length - 1)));
}

/** What a kit reads from its fake: the agent-loop turns and the tool results sent back. */
export type FakeReadings = Pick<CalibrationFake, 'turns' | 'toolResultAfter'>;

/**
 * A kit's fake as the calibration drives it, for every API alike: each reply is said in the
 * API's words (`itemOf`) and queued, except an error, which stands until the next reply is
 * scripted (an agent that retries a refused turn is refused again).
 */
export async function driveFake<Item extends { kind: string }, Fake extends { url: string; queue(items: Item[]): void; close(): Promise<void> }>(
  start: (respond: () => Item | null) => Promise<Fake>,
  itemOf: (reply: CalibrationReply) => Item,
  read: (fake: Fake) => FakeReadings,
): Promise<CalibrationFake> {
  let refusing: Item | null = null;
  const fake = await start(() => refusing);
  return {
    url: fake.url,
    ...read(fake),
    next(reply) {
      const item = itemOf(reply);
      refusing = item.kind === 'error' ? item : null;
      if (refusing === null) fake.queue([item]);
    },
    close: () => fake.close(),
  };
}

export interface CalibrationKit {
  startFake(): Promise<CalibrationFake>;
  /**
   * Writes the agent's own files under `home` as a person's who finished its setup, pointed at
   * the fake (never anything of the person's: `home` is the calibration's throwaway HOME), and
   * returns the variables its launch needs (key, endpoint, config directory), passed as a
   * dispatch's `--env` would be.
   */
  seedHome(home: string, fakeUrl: string, version: string | null): Record<string, string>;
  /** The question the `question` reply puts (the calibration waits for these words on screen). */
  readonly question: string;
  /** What its hook witness says in each situation where it says something (absent: silent there). */
  readonly witness: Partial<Record<CalibrationSituation, HookWord>>;
  /**
   * How long after the command shows the permission dialog may take to be drawn (absent: the
   * shared window). Qwen Code draws the call first as running (`⊶ Shell touch …`) and its dialog
   * after its checks, seconds later on a loaded machine.
   */
  readonly permissionWindowMs?: number;
  /** Keys that take the permission dialog's first choice (allow once). */
  readonly allowKeys: readonly Key[];
  /** Keys that leave a question menu unanswered. */
  readonly leaveQuestionKeys: readonly Key[];
  /**
   * Where the agent writes its own log, given the environment it was launched with (absent, or
   * null: none worth keeping). In kingshand's sandbox an agent's data home is the worker's own,
   * not under HOME. A failed calibration keeps the newest log's end beside its screens
   * (daemon/calibration/agent-log.ts).
   */
  agentLogDir?(launchEnv: Readonly<Record<string, string>>): string | null;
}

/** The question every kit's fake asks (the fakes' own ASK input), and its choices. */
export const CALIBRATION_QUESTION = { question: FAKE_QUESTION.question, header: FAKE_QUESTION.header, options: FAKE_QUESTION_TWO_CHOICES } as const;

/** Stands in for an API key everywhere a calibration needs one: never a secret, never sent beyond 127.0.0.1. */
export const CALIBRATION_KEY = 'kh-calibration-not-a-secret';

/**
 * The question every kit's `question` reply puts, and the keys every agent so far takes in its
 * dialogs: enter takes the permission dialog's first choice (allow once, the one selected), esc
 * leaves a question unanswered. A kit spreads these and names only what differs.
 */
export const USUAL_DIALOGS = {
  question: CALIBRATION_QUESTION.question,
  allowKeys: ['enter'],
  leaveQuestionKeys: ['escape'],
} as const satisfies Pick<CalibrationKit, 'question' | 'allowKeys' | 'leaveQuestionKeys'>;
