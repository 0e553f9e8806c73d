/**
 * Posture off needs kingshand's sandbox, for every agent: nobody reads a command before it runs,
 * so the sandbox is the boundary. Where it cannot be built, dispatch and relaunch refuse before
 * anything is created, with what stops it, its fix, and the posture that needs no sandbox.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { SandboxAvailability } from './availability.ts';

export function sandboxRefusal(posture: string, project: string, sandbox: SandboxAvailability | null): RefusedError | null {
  if (posture !== 'off' || sandbox === null || sandbox.ok) return null;
  return new RefusedError(
    'sandbox-unavailable',
    `posture off runs a worker with nobody reading its commands, so kingshand runs it in a sandbox of its own, which cannot be built on this machine: ${sandbox.reason}; nothing was created. ` +
      `Fix: ${sandbox.fix}. Or choose a posture where a person reads each command: hand project set ${project} --permissions edits. (hand doctor checks the sandbox.)`,
    { permissions: posture, project, reason: sandbox.reason, fix: sandbox.fix },
  );
}

/**
 * A far host's worker runs without kingshand's sandbox: it is built on this machine only (the far
 * side's mounts, secrets and agent directories are not made there yet). Said as the reason posture
 * off is refused for a far worker.
 */
export const FAR_HOST_HAS_NO_SANDBOX: SandboxAvailability = {
  ok: false,
  bwrap: null,
  reason: "kingshand's sandbox is built on this machine only, and this worker would run on another host",
  fix: 'run the worker on this machine (leave out --host), or use posture edits or ask for this project (a person then reads each command)',
};
