/**
 * What the daemon needs from the fleet host: the FleetHost API itself, minus the lifecycle calls
 * only the daemon's main makes. One definition (actors/fleet-host.ts), so a field added to the
 * worker view reaches `hand status` without a second copy to keep in step.
 */
import type { FleetHost, WorkerView } from './fleet-host.ts';

export type WorkerViewLike = WorkerView;
export type FleetHostApi = Omit<FleetHost, 'start' | 'quiesce' | 'hook'>;
