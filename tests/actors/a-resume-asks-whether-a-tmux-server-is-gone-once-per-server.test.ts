/**
 * A resume re-attaching its restored workers asks, for each, whether the tmux server its pane was
 * made on is gone for certain (a reboot, a killed server: the worker is lost). 500 workers share one
 * server, and each question is three /proc reads (issue 46): a server not found gone is asked once a
 * pass; a gone one is asked for each of its workers (the words name the worker), each of them lost.
 */
import { describe, expect, it } from 'vitest';
import { beginReattach, reattachPanes } from '../../actors/restore.ts';
import { newRecord, type WorkerRecord } from '../../actors/worker-record.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';
import type { WorkerEvent } from '../../machines/worker.types.ts';

const intent = (id: string, paneServer: string): WorkerIntent => ({
  id, project: 'p', repo: '/r', worktree: `/r/${id}`, branch: id, base: 'main', backend: 'tmux', agent: 'mock',
  briefPath: `/nowhere/${id}/brief.md`, reportPath: `/nowhere/${id}/report.md`, createdAt: 1, paneServer,
});

describe('a resume asks whether a tmux server is gone', () => {
  it('once per running server, and for each worker of a gone one', async () => {
    const records = new Map<string, WorkerRecord>();
    for (let i = 0; i < 40; i++) records.set(`up${i}`, newRecord(intent(`up${i}`, '100.5')));
    for (let i = 0; i < 3; i++) records.set(`down${i}`, newRecord(intent(`down${i}`, '200.7')));
    const asked: string[] = [];
    const routed: [string, WorkerEvent][] = [];
    const attached: string[] = [];
    const host = { attach: async (paneId: string) => ({ paneId, alive: true }), survivesRestart: true } as unknown as TerminalHost;
    const panes = [...records.keys()].map((id, k) => ({ id, paneId: `%${k}` }));
    const deps = {
      hostFor: () => host,
      clock: { now: () => 5 } as never,
      recordOf: (id: string) => records.get(id)!,
      route: (id: string, e: WorkerEvent) => void routed.push([id, e]),
      attachFeed: (id: string) => void attached.push(id),
      serverGone: (i: WorkerIntent) => {
        asked.push(i.id);
        return i.paneServer === '200.7' ? `its tmux server is gone (hand resume ${i.id})` : null;
      },
    };
    await reattachPanes(panes, deps, beginReattach(panes, deps));
    expect(asked.filter((id) => id.startsWith('up'))).toHaveLength(1);
    expect(asked.filter((id) => id.startsWith('down')).sort()).toEqual(['down0', 'down1', 'down2']);
    expect(routed.map(([id, e]) => [id, e.type]).sort()).toEqual([['down0', 'LOST'], ['down1', 'LOST'], ['down2', 'LOST']]);
    expect(attached).toHaveLength(40);
  });

  it('asks again in the next pass (a server may have gone since)', async () => {
    const records = new Map([['w', newRecord(intent('w', '100.5'))]]);
    const host = { attach: async (paneId: string) => ({ paneId, alive: true }), survivesRestart: true } as unknown as TerminalHost;
    let asked = 0;
    const deps = { hostFor: () => host, clock: { now: () => 5 } as never, recordOf: (id: string) => records.get(id)!, route: () => {}, attachFeed: () => {}, serverGone: () => (asked++, null) };
    const panes = [{ id: 'w', paneId: '%1' }];
    await reattachPanes(panes, deps);
    await reattachPanes(panes, deps);
    expect(asked).toBe(2);
  });
});
