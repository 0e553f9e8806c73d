/**
 * Refusals the daemon gives in more than one place, each with one code and one wording: the
 * person sees the same sentence whichever path refused, and a wording is changed here once.
 * Each names the bad value and the way forward (COMMON rule: errors name the fix).
 */
import { RefusedError, UsageError } from './errors.ts';
import { AGENTS, BACKENDS, HOLD_KINDS, POSTURES, UNTILS } from './vocabulary.ts';
import type { DialogReading } from './screen-reading.ts';
import { quoteDialog } from './worker-words.ts';

const quoted = (v: unknown) => JSON.stringify(v);

export function unknownWorker(id: string): RefusedError {
  return new RefusedError('unknown-worker', `no worker named ${quoted(id)}. \`hand status\` lists the workers.`, { id });
}

export function workerExists(id: string, stage: string): RefusedError {
  return new RefusedError('worker-exists', `worker ${id} already exists (stage ${stage}). Stop it first (hand stop ${id}) or pick another id.`, { id });
}

/** The daemon has no such terminal host (reason: what is missing, when the caller knows). */
export function backendUnavailable(backend: string, reason?: string): RefusedError {
  return new RefusedError('backend-unavailable', reason ?? `the ${backend} terminal host is not available in this daemon.`, { backend });
}

export function dispatchFailed(id: string, problem: string | null): RefusedError {
  return new RefusedError('dispatch-failed', `worker ${id} failed before it started: ${problem ?? 'unknown reason'}`, { id, problem });
}

export function workerNotDone(id: string, stage: string): RefusedError {
  return new RefusedError('worker-not-done', `worker ${id} is ${stage}; only a done worker (settled, report written, no open decision) is landed. Wait for it (hand wait ${id} --until settled).`, { id, stage });
}

export function badAgent(agent: string): UsageError {
  return new UsageError('bad-agent', `unknown agent ${quoted(agent)}. Use ${AGENTS.map((a) => `--agent ${a}`).join(' or ')}.`, { agent });
}

export function badBackend(backend: string): UsageError {
  return new UsageError('bad-backend', `unknown backend ${quoted(backend)}. Use --backend ${BACKENDS.slice(0, -1).join(', ')} or ${BACKENDS.at(-1)}.`, { backend });
}

export function badPosture(posture: string): UsageError {
  return new UsageError('bad-posture', `posture ${quoted(posture)} is unknown. Use one of: ${POSTURES.join(', ')}.`, { posture });
}

/** A hold kind outside HOLD_KINDS (the daemon's edge and the backlog store say the same). */
export function badHoldKind(kind: string): UsageError {
  return new UsageError('bad-hold-kind', `hold kind ${JSON.stringify(kind)} is unknown. Use one of: ${HOLD_KINDS.join(', ')}.`, { kind });
}

export function badUntil(until: string): UsageError {
  return new UsageError('bad-until', `--until ${until} is unknown. Use one of: ${UNTILS.join(', ')}.`, { until });
}

/**
 * A text send while the screen waits on a dialog (issue 21): typed text and its Enter would
 * answer the dialog with whatever row is highlighted, a choice nobody made. Quotes the dialog
 * and names the way that answers it on purpose: one key per call, or `hand answer`.
 */
export function awaitingInput(id: string, raw: DialogReading | null | undefined, reason?: string | null): RefusedError {
  // The dialog's question and labels are the worker's words: quoted and attributed (issue 37).
  const dialog = quoteDialog(id, raw);
  const what = dialog?.question ? ` (${dialog.question})` : '';
  const options = dialog?.options.length ? ` Options: ${dialog.options.map((o) => `${o.n}. ${o.label}`).join(' | ')}.` : '';
  const free = dialog?.options.find((o) => o.freeText);
  const answer = dialog ? ` or hand answer ${id} <option> --fingerprint ${dialog.fingerprint}` : '';
  const freeHint = free ? ` To type your own words, first select option ${free.n}, ${free.label} (hand answer ${id} ${free.n}), then hand send.` : '';
  return new RefusedError(
    'awaiting-input',
    `refused (awaiting-input): worker ${id} waits on a ${dialog?.reason ?? reason ?? 'dialog'} dialog${what}; a text send would answer it, so nothing was sent.${options} ` +
      `Answer it only with the person's choice: hand keys ${id} <key> (one key per call, hand read ${id} between)${answer}.${freeHint}`,
    { id, dialog: dialog ?? null, blockedReason: dialog?.reason ?? reason ?? null },
  );
}
