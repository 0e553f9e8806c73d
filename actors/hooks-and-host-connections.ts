/**
 * What the fleet host is told about its workers besides their screens (actors/fleet-host.ts
 * serves it): a worker's hook spoke (its word goes through the witness to the machine, and the
 * transcript it names is read for usage), and a far host's connection was lost or is back.
 */
import { readTranscriptUsage } from '../io/agent/claude/transcript-usage.ts';
import type { Clock } from './ports.ts';
import type { FleetHost } from './fleet-host-interface.ts';
import type { FleetRegistry } from './fleet-registry.ts';
import type { WorkerFeeds } from './worker-feeds.ts';
import { onNote, readingFor, turnEndWitnessed } from './witness.ts';

export interface HooksAndConnectionsDeps {
  registry: FleetRegistry;
  feeds: Pick<WorkerFeeds, 'armDispute'>;
  clock: Clock;
}

export function hooksAndHostConnections(d: HooksAndConnectionsDeps): Pick<FleetHost, 'hook' | 'hostConnection'> {
  const { registry: r, clock } = d;
  /** Workers whose transcript usage is being read (one read each at a time). */
  const usageReads = new Set<string>();
  return {
    async hook(note) {
      const record = r.recordOf(note.id);
      const w = record.witness;
      if (onNote(w, note, clock.now())) {
        const reading = readingFor(w);
        // The turn-end word for the screen already shown: the machine need not wait out its quiet time.
        if (reading) r.route(note.id, { type: 'SCREEN', reading, at: clock.now(), ...(turnEndWitnessed(w) ? { turnEnded: true } : {}) });
      }
      d.feeds.armDispute(note.id);
      r.publish(note.id);
      // Usage is read after the answer: the hook that brought the path is not kept waiting on it.
      // One read per worker at a time: a worker's hooks cannot make the daemon hold many copies of
      // a large transcript at once (the path is the worker's word, issue 37).
      if (note.transcriptPath && !usageReads.has(note.id)) {
        usageReads.add(note.id);
        void readTranscriptUsage(note.transcriptPath)
          .then((usage) => {
            if (!usage || r.records.get(note.id) !== record) return;
            w.tokens = usage;
            r.publish(note.id);
          })
          .finally(() => usageReads.delete(note.id));
      }
      return r.view(note.id)!;
    },

    hostConnection(name, state) {
      for (const [id, record] of r.records) {
        if (record.intent.host !== name) continue;
        const v = r.view(id);
        // Only a worker with a pane in a state that reads one: a gate, a landing or a stop keep theirs.
        if (!v || v.condition === 'gone' || !v.paneId || /^(gate|landing|teardown|admission)/.test(v.stage)) continue;
        if (state === 'lost') r.route(id, { type: 'PANE_MISSING', serverUp: false, at: clock.now() });
        else record.feed?.requestRead();
        r.publish(id);
      }
    },
  };
}
