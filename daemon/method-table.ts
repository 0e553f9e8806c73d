/**
 * The daemon's method table: every family's entries (daemon/<family>/<family>-methods.ts), joined
 * into one, from which the edge parsers the socket server and the review page run and the
 * handlers the methods run are both read. Typed over every name of contract/methods.ts, so a
 * family left out does not compile; the contract's table holds each method's types, access and
 * face, this one its parser and its handler.
 */
import { METHODS, type MethodName } from '../contract/methods.ts';
import type { MethodTable, ParamParsers } from '../contract/protocol.ts';
import type { CrossRules } from './cross-rules.ts';
import type { DaemonMethod, MethodGroups } from './method-entry.ts';
import { FLEET_METHODS } from './fleet/fleet-methods.ts';
import { GATE_METHODS } from './gates/gate-methods.ts';
import { SESSION_METHODS } from './sessions/session-methods.ts';
import { WORK_METHODS } from './work/work-methods.ts';
import { HOST_METHODS } from './hosts/host-methods.ts';
import { CALIBRATION_METHODS } from './calibration/calibration-methods.ts';
import { ANNOTATION_METHODS } from './annotations/annotation-methods.ts';

const DAEMON_METHODS: { [M in MethodName]: DaemonMethod<M> } = {
  ...FLEET_METHODS, ...GATE_METHODS, ...SESSION_METHODS, ...WORK_METHODS, ...HOST_METHODS, ...CALIBRATION_METHODS, ...ANNOTATION_METHODS,
};

/** One parser per method, run ONCE at the edge on a request's raw params (contract/protocol.ts servedMethod). */
export const PARAM_PARSERS = Object.fromEntries(METHODS.map((m) => [m, DAEMON_METHODS[m].parse])) as ParamParsers;

/** Every method's handler, built from the daemon's groups, with the rules that cut across them. */
export function createMethods(g: MethodGroups, rules: CrossRules): MethodTable {
  const wiring = { ...g, rules };
  return Object.fromEntries(METHODS.map((m) => [m, DAEMON_METHODS[m].handle(wiring)])) as MethodTable;
}
