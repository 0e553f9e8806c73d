/**
 * What the screen reader must say in each calibration situation, and a reading said in words
 * (both columns of the output are in the same words, so a wrong line reads as a sentence:
 * "working — read idle, box empty"). Pure.
 */
import type { ScreenReading } from '../../contract/screen-reading.ts';
import type { CalibrationSituation } from '../../contract/methods/calibration.ts';

export type Expectation =
  | { state: 'idle'; box: string; error?: boolean }
  | { state: 'working' }
  | { state: 'blocked'; reason: 'permission' | 'question' }
  | { state: 'exited' };

/** The draft typed into the box (typed text), then cleared (idle). */
export const CALIBRATION_DRAFT = 'calibration draft 42';

export function expectationOf(situation: CalibrationSituation): Expectation {
  switch (situation) {
    case 'first-start':
    case 'idle':
    case 'finished':
      return { state: 'idle', box: '', error: false };
    case 'typed-text':
      return { state: 'idle', box: CALIBRATION_DRAFT };
    case 'working':
      return { state: 'working' };
    case 'permission':
      return { state: 'blocked', reason: 'permission' };
    case 'question':
      return { state: 'blocked', reason: 'question' };
    case 'api-error':
      return { state: 'idle', box: '', error: true };
    case 'exit':
      return { state: 'exited' };
  }
}

/** Whether `r` says what `e` is. */
export function meets(r: ScreenReading, e: Expectation): boolean {
  if (!r.readable || r.state !== e.state) return false;
  switch (e.state) {
    case 'idle':
      if ((r.promptBox ?? null) !== e.box) return false;
      if (e.box !== '' && r.promptBoxKind !== 'typed') return false;
      if (e.error === true) return Boolean(r.agentError);
      if (e.error === false) return !r.agentError;
      return true;
    case 'blocked':
      return r.blockedReason === e.reason;
    default:
      return true;
  }
}

const quoted = (s: string, max = 60) => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);

export function describeExpectation(e: Expectation): string {
  switch (e.state) {
    case 'idle':
      return `idle, ${e.box === '' ? 'box empty' : `box holds ${quoted(e.box)}`}${e.error === true ? ', the turn\'s error named' : ''}`;
    case 'blocked':
      return `blocked (${e.reason})`;
    default:
      return e.state;
  }
}

/** A reading in the words of describeExpectation. */
export function describeReading(r: ScreenReading): string {
  if (!r.readable) return 'unreadable (could not tell)';
  switch (r.state) {
    case 'idle': {
      const box = r.promptBox === null ? 'no box' : r.promptBox === '' ? 'box empty' : r.promptBoxKind === 'suggestion' ? `box shows a suggestion ${quoted(r.promptBox)}` : `box holds ${quoted(r.promptBox)}`;
      return `idle, ${box}${r.agentError ? `, error ${quoted(r.agentError)}` : ''}`;
    }
    case 'blocked':
      return `blocked (${r.blockedReason ?? 'no reason'})`;
    case 'unknown':
      return `could not tell${r.awaitingInput ? ' (awaiting input)' : ''}`;
    default:
      return r.state;
  }
}
