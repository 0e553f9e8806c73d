/**
 * Why a phone link was refused, with the HTTP status it is answered with. Every refusal says that
 * nothing was typed and where to answer instead, so a person who tapped a stale button knows
 * the worker is untouched.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { CapabilityPayload } from './capability.ts';

export class CapabilityRefusal extends RefusedError {
  readonly status: number;
  /** The capability, when its mac was ours (so the worker it names is true): the refusal is journaled on it. */
  payload: CapabilityPayload | null = null;
  constructor(code: string, status: number, why: string) {
    super(code, `refused: ${why}. Nothing was typed. Open the review page (hand review) to see the worker and answer there.`, {});
    this.status = status;
  }
}
