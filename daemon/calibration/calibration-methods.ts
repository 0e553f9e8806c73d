/**
 * `calibrate` (issue 39): the agent CLIs driven against their fake APIs, with its edge parser and
 * its handler (method-entry.ts; the body is calibrate-handler.ts beside this file).
 */
import { UsageError } from '../../contract/errors.ts';
import { EVERY_AGENT } from '../../contract/methods/calibration.ts';
import type { FamilyTable } from '../method-entry.ts';
import { agentParam, flag, str } from '../params.ts';

export const CALIBRATION_METHODS: FamilyTable<'calibration'> = {
  calibrate: {
    parse: (p) => {
      const agent = p.agent === EVERY_AGENT ? EVERY_AGENT : agentParam(p);
      const backend = str(p, 'backend', false) || undefined;
      if (backend !== undefined && backend !== 'tmux' && backend !== 'pty') {
        throw new UsageError('bad-backend', `--backend ${JSON.stringify(backend)}: a calibration runs its agents in tmux or pty (the hosts that run on this machine)`, { backend });
      }
      return { ...(agent && { agent }), ...(backend && { backend }), ...(flag(p, 'auto') ? { auto: true } : {}) };
    },
    handle: (w) => w.calibration.calibrate,
  },
};
