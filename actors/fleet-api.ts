/**
 * What the daemon needs from the fleet host: the FleetHost API itself, minus the lifecycle calls
 * only the daemon's main makes. One definition (actors/fleet-host-interface.ts), so a field added to the
 * worker view reaches `hand status` without a second copy to keep in step.
 */
import type { FleetHost } from './fleet-host-interface.ts';
import type { WorkerView } from './worker-view.ts';

export type WorkerViewLike = WorkerView;
export type FleetHostApi = Omit<FleetHost, 'start' | 'quiesce' | 'hook'>;
