/**
 * Rule (issue 25, item 1), the full-disk half of a-restore-never-types-a-first-prompt-twice: a
 * first prompt is marked on disk before its Enter, so on a full state disk it is typed and held;
 * a daemon killed then is restored with the prompt in the box, and presses its Enter once.
 */
import { describe, expect, it } from 'vitest';
import { makeCliWorld } from '../cli/cli-harness.ts';
import { until } from '../helpers/temp.ts';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { killDaemon, type FaultWorld } from './fault-world.ts';
import { rmSync, writeFileSync } from 'node:fs';
import { smallDisk } from '../helpers/small-disk.ts';
import { WORKERS, assertEachPromptedOnce, dispatchAll, events, ids, prompts, startFilePath } from './first-prompt-world.ts';
import { removeEventLogs } from './first-prompt-world.ts';

describe('a first prompt held by a full disk is sent once', () => {
  it(`full disk before the Enter, then SIGKILL: ${WORKERS} first prompts typed and held (their submission cannot be recorded) are each sent once`, async (ctx) => {
    const disk = smallDisk('prompt-once-disk', '8m');
    const w = await makeCliWorld('prompt-once-full', { daemonProcess: true, beforeHome: (home) => disk.beforeHome(home) });
    try {
      if (disk.refused) ctx.skip(`this machine refuses to mount a tmpfs: ${disk.refused}`);
      expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
      // The agents draw nothing until the disk is full, so no prompt is due before it (a 4 s start
      // delay raced a slow machine: twenty dispatches took longer and twelve agents had drawn).
      const start = startFilePath(w);
      await dispatchAll(w, start);
      const filler = disk.fill()!;
      expect(ids.filter((id) => events(w, id).length > 0), 'agents that had drawn before the disk was full (the premise)').toEqual([]);
      writeFileSync(start, '');
      // Each prompt is typed, then held before its Enter: the mark cannot be written.
      const held = (rows: Array<{ id: string; stage: string; promptBox: string | null }>) => rows.filter((r) => r.stage === 'briefing.sending' && r.promptBox);
      await until('every first prompt to be typed and held before its Enter', () => call(homePaths(w.home), 'status', {}, { autostart: false }), (rows) => held(rows).length === WORKERS, 60_000, 200);
      expect(ids.filter((id) => prompts(w, id).length > 0), 'agents that received a prompt whose submission was not recorded').toEqual([]);
      await killDaemon(w as FaultWorld);
      rmSync(filler, { force: true });
      await assertEachPromptedOnce(w);
    } finally {
      await w.cleanup();
      await removeEventLogs(w);
      disk.cleanup();
    }
  }, 150_000);
});
