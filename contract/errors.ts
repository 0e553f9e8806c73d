/**
 * Typed errors. Each carries the process exit code the CLI turns it into; nothing below
 * the CLI edge calls process.exit. Codes follow the CLI contract:
 * 1 refused or failed, 2 bad usage or input, 3 daemon unreachable.
 */
export type ExitCode = 1 | 2 | 3;

export class HandError extends Error {
  readonly exitCode: ExitCode;
  /** Machine-readable kind, stable across releases (used in --json output). */
  readonly code: string;
  /** Extra structured facts for --json output (never secrets). */
  readonly details: Record<string, unknown>;
  constructor(code: string, message: string, exitCode: ExitCode, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.details = details;
  }
}

/** Bad input from the person: a value that can never work. Exit 2. */
export class UsageError extends HandError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, 2, details);
  }
}

/** A well-formed request that was refused or failed (guard, missing worker, git refusal). Exit 1. */
export class RefusedError extends HandError {
  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(code, message, 1, details);
  }
}

/**
 * A request that did not present the daemon's authority key asked for a method that acts for the
 * person (issue 24 item 1): a worker's process, or anything else that cannot read the key.
 */
export class NotThePersonError extends RefusedError {
  constructor(method: string, keyPath: string) {
    super(
      'not-the-person',
      `refused: ${method} acts for the person, and this request did not present the daemon's authority key (${keyPath}). ` +
        "Only the person's own hand (the CLI in their shell, hand mcp for the Hand, the review page) holds it; " +
        'a worker cannot approve, land, decide or change settings — ask the person in your report.',
      { method },
    );
  }
}

/** A person-only setting asked for by the Hand (contract/methods.ts PERSON_ONLY_METHODS). Exit 1. */
export class NotTheHandsError extends RefusedError {
  constructor(method: string, command: string) {
    super(
      'not-the-hands',
      `refused: ${method} is the person's own setting, never the Hand's. Ask the person to run it in their own terminal: ${command}`,
      { method, command },
    );
  }
}

/** The daemon could not be reached or started. Exit 3. */
export class DaemonUnreachableError extends HandError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('daemon-unreachable', message, 3, details);
  }
}

/** The prompt box holds text: a send or a first-key Enter would submit words nobody wrote. */
export class PromptBoxNotEmptyError extends RefusedError {
  constructor(workerOrPane: string, boxText: string, kind: string) {
    super(
      'prompt-box-not-empty',
      `refused: the input box of ${workerOrPane} holds ${kind} text ${JSON.stringify(boxText)}; ` +
        `nothing was sent. Dismiss it in the worker (hand keys ${workerOrPane} escape) or pass --allow-non-empty-box to send anyway.`,
      { box: boxText, kind },
    );
  }
}
