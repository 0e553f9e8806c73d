/**
 * Wires issue 13 into the daemon with one call from create-daemon.ts: opens the work stores on
 * the fleet database, starts the notifier and the work watch on the fleet's view stream, and
 * returns the work methods and the rules the fleet's methods obey (the families' tables call them by name).
 */
import type { FleetStore } from '../../persistence/types.ts';
import { openWorkStores } from '../../persistence/work/index.ts';
import { createTargetFile } from '../../actors/notify/targets.ts';
import { createNotifier } from '../../actors/notify/notifier.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import { startWorkWatch } from './work-watch.ts';
import { startBaseSettleWatch } from '../fleet/base-settle-watch.ts';
import type { BaseTips } from '../../persistence/base-tips.ts';
import type { BaseNotices } from '../fleet/base-notices.ts';
import { workHandlers, type WorkMethods } from './work-handlers.ts';
import { crossRules, type CrossRules } from '../cross-rules.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import { awayAccountIfUnread, type AwayAccount } from './away-account.ts';
import type { PlaceOf } from '../gates/landing.ts';
import type { PhoneLinks } from '../../actors/phone/phone-links.ts';

export function installWork(args: {
  store: FleetStore;
  fleet: FleetHostApi;
  paths: { home: string; db: string; workers: string };
  env: Record<string, string | undefined>;
  log: (obj: Record<string, unknown>, msg: string) => void;
  /** The recorded base tips: a settle compares its project's base with them (base-settle-watch.ts). */
  baseTips?: BaseTips;
  baseNotices?: BaseNotices;
  /** Where a worker's git runs: a far worker's base is compared on its host. */
  placeOf?: PlaceOf;
  /** Actions for notifications (issue 42): answers and a view link, when a public URL is set. */
  phoneLinks?: PhoneLinks;
}): { methods: WorkMethods; rules: CrossRules; stores: WorkStores; close(): Promise<void>; awayDigest(): AwayAccount | null } {
  const stores = openWorkStores(args.paths.db);
  const targets = createTargetFile(args.paths.home);
  const sendTimeoutMs = Number(args.env.HAND_NOTIFY_TIMEOUT_MS) > 0 ? Number(args.env.HAND_NOTIFY_TIMEOUT_MS) : 5000;
  const notifier = createNotifier({ store: stores.notify, targets, log: args.log, sendTimeoutMs });
  const watch = startWorkWatch({ fleet: args.fleet, stores, notifier, log: args.log, ...(args.phoneLinks && { phoneLinks: args.phoneLinks }) });
  const baseWatch = args.baseTips ? startBaseSettleWatch({ store: args.store, fleet: args.fleet, stores, notifier, baseTips: args.baseTips, notices: args.baseNotices, ...(args.placeOf && { placeOf: args.placeOf }), log: args.log }) : null;
  notifier.start();
  const deps = { store: args.store, fleet: args.fleet, stores, notifier, targets, watch, home: args.paths.home, log: args.log };
  return {
    methods: workHandlers(deps),
    rules: crossRules({ store: args.store, fleet: args.fleet, stores, home: args.paths.home, log: args.log }),
    stores,
    /** For a session digest (`hand digest`): the away account while the journal has unread entries, else null. */
    awayDigest: () => awayAccountIfUnread(stores, args.fleet),
    async close() {
      watch.stop();
      baseWatch?.stop();
      notifier.stop();
      await Promise.race([Promise.all([watch.settled(), baseWatch?.settled()]), new Promise((r) => setTimeout(r, 2000))]);
      stores.close();
    },
  };
}
