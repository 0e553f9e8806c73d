/**
 * Why a phone link was refused, with the HTTP status it is answered with. Every refusal says that
 * nothing was typed and where to answer instead, so a person who tapped a stale button knows
 * the worker is untouched.
 */
import { RefusedError } from '../../contract/errors.ts';

export class CapabilityRefusal extends RefusedError {
  readonly status: number;
  constructor(code: string, status: number, why: string) {
    super(code, `refused: ${why}. Nothing was typed. Open the review page (hand review) to see the worker and answer there.`, {});
    this.status = status;
  }
}
