/**
 * The fleet machine: owns the registry of workers (projects live in the store), spawns one worker actor per
 * dispatch (systemId `worker:<id>`, so the wiring reaches it with `system.get` and sends it screen
 * readings and person commands directly: the fleet relays nothing), and supervises one-for-one: a worker that crashes is marked failed and the
 * fleet stays up (without an `xstate.error.actor.*` handler one crash would error the root).
 * PURE: no I/O; the worker logic it spawns is whatever `worker` is provided as.
 */
import { setup, assign, enqueueActions } from 'xstate';
import { workerMachine } from './worker.machine.ts';
import type { WorkerInput } from './worker.types.ts';

export type WorkerStatus = 'active' | 'finished' | 'failed';

export interface FleetWorkerEntry {
  status: WorkerStatus;
  /** The crash message when a worker actor errored (supervision), else null. */
  error: string | null;
}

export interface FleetContext {
  workers: Record<string, FleetWorkerEntry>;
}

export type FleetEvent =
  | { type: 'DISPATCH'; input: WorkerInput }
  | { type: 'FORGET'; id: string }
  // Sent by XState itself when a spawned worker errors or reaches a final state.
  | { type: `xstate.error.actor.${string}`; error: unknown }
  | { type: `xstate.done.actor.${string}`; output?: unknown };

export const workerSystemId = (id: string): string => `worker:${id}`;

/** The worker id of a system id made by workerSystemId, or null for any other actor. */
export const workerIdOfSystemId = (systemId: string | undefined): string | null =>
  systemId?.startsWith('worker:') ? systemId.slice('worker:'.length) : null;

/** `xstate.error.actor.<id>` / `xstate.done.actor.<id>` → `<id>`. */
const childIdOf = (type: string): string => type.split('.').slice(3).join('.');

export const fleetMachine = setup({
  types: {
    context: {} as FleetContext,
    events: {} as FleetEvent,
  },
  actors: { worker: workerMachine },
  guards: {
    isNewWorker: ({ context, event }) => event.type === 'DISPATCH' && !Object.hasOwn(context.workers, event.input.id),
  },
}).createMachine({
  id: 'fleet',
  context: { workers: {} },
  initial: 'active',
  states: {
    active: {
      on: {
        DISPATCH: {
          guard: 'isNewWorker',
          actions: [
            assign({
              workers: ({ context, event }) => ({ ...context.workers, [event.input.id]: { status: 'active' as const, error: null } }),
            }),
            enqueueActions(({ enqueue, event }) => {
              enqueue.spawnChild('worker', { id: event.input.id, systemId: workerSystemId(event.input.id), input: event.input });
            }),
          ],
        },
        FORGET: {
          actions: [
            enqueueActions(({ enqueue, event }) => enqueue.stopChild(event.id)),
            assign({
              workers: ({ context, event }) => {
                const { [event.id]: _gone, ...rest } = context.workers;
                return rest;
              },
            }),
          ],
        },
        // One-for-one supervision: only the crashed worker is affected.
        'xstate.error.actor.*': {
          actions: assign({
            workers: ({ context, event }) => {
              const id = childIdOf(event.type);
              const error = 'error' in event ? event.error : undefined;
              return { ...context.workers, [id]: { status: 'failed' as const, error: error instanceof Error ? error.message : String(error) } };
            },
          }),
        },
        'xstate.done.actor.*': {
          actions: assign({
            workers: ({ context, event }) => {
              const id = childIdOf(event.type);
              return { ...context.workers, [id]: { status: 'finished' as const, error: null } };
            },
          }),
        },
      },
    },
  },
});

export type FleetMachine = typeof fleetMachine;
