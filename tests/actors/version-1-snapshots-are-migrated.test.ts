/**
 * A snapshot written before the context's once-optional fields were required (version 1) is
 * migrated on restore, not skipped: the missing fields take the value version 1 meant, the
 * worker comes back where it was, and its next write is the current version.
 */
import { describe, it, expect } from 'vitest';
import { settle, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { SNAPSHOT_VERSION } from '../../actors/snapshot-codec.ts';
import { CONTEXT_DEFAULTS_SINCE_V1, CONTEXT_DEFAULTS_SINCE_V2 } from '../../machines/worker.types.ts';

const harness = useHarness();

describe('version-1 snapshots are migrated on restore', () => {
  it('a version-1 row without the later fields restores with their defaults and is written back as the current version', async () => {
    expect(SNAPSHOT_VERSION).toBe(3);
    const { h, pane } = await harness.working('w1');
    await h.fleet.shutdown();
    const row = h.store.workers.get('w1')!;
    const snap = JSON.parse(row.snapshotJson!);
    // A version-1 row predates the fields of version 2 and of version 3 alike.
    for (const k of [...Object.keys(CONTEXT_DEFAULTS_SINCE_V1), ...Object.keys(CONTEXT_DEFAULTS_SINCE_V2)]) delete snap.context[k];
    h.store.workers.set('w1', { ...row, snapshotJson: JSON.stringify(snap), snapshotVersion: 1 });
    const fleetRow = h.store.fleet!;
    h.store.fleet = { ...fleetRow, version: 1 };

    const res = await h.restart();
    await settle(h);
    expect(res).toMatchObject({ restored: ['w1'], skipped: [] });
    const v = h.fleet.view('w1')!;
    expect(v.stage).toBe('running.working');
    expect([v.landing, v.landed, v.rejection, v.landingFailure]).toEqual([null, null, null, null]);

    await show(h, pane, reading({ state: 'idle', fingerprint: 'f-idle' }));
    const written = h.store.workers.get('w1')!;
    expect(written.snapshotVersion).toBe(SNAPSHOT_VERSION);
    expect(JSON.parse(written.snapshotJson!).context).toMatchObject(CONTEXT_DEFAULTS_SINCE_V1);
    expect(JSON.parse(written.snapshotJson!).context).toMatchObject({ unclassifiedMs: CONTEXT_DEFAULTS_SINCE_V2.unclassifiedMs });
  });
});
