/**
 * Rule (issue 41 item 3): with `hand project set <p> --resume-lost auto`, a daemon that starts and
 * finds the project's workers lost (their terminal server gone, as after a reboot) resumes them by
 * itself, each into its own conversation. A worker that was waiting on a person comes back waiting:
 * the one line typed says its question is still open, nothing else is typed, and it is parked
 * again on the same decision — never a second one, never answered by anyone but the person.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { FAKE_PARK_QUESTION } from '../../io/fake-model/anthropic/park-script.ts';
import { killDaemonAndTmux } from '../helpers/processes.ts';
import { until } from '../helpers/temp.ts';
import { type E2eWorld, useE2eWorld, watermark } from './e2e-world.ts';
import { RESUME_LINE_WAITING } from '../../daemon/sessions/resume-line.ts';

let fake: FakeAnthropic;
let w: E2eWorld;
useE2eWorld('e2e-auto-resume', { daemonProcess: true }, {}, (made) => void ({ fake, w } = made));

it('its lost workers are resumed when the daemon starts; a parked one comes back parked on the same decision, told only that its question is open', async () => {
  const project = basename(w.repo);
  const set = await w.hand(['project', 'set', project, '--resume-lost', 'auto', '--json']);
  expect(set.code, set.stdout + set.stderr).toBe(0);
  expect(set.json).toMatchObject({ resumeLost: 'auto' });

  const id = 'asker';
  await w.dispatch(id, 'tmux', `MODE:park ${w.reportPathOf(id)}`);
  const parked = await w.wait(id, 'settled', '60s');
  expect(parked.code, parked.stdout + parked.stderr).toBe(0);
  const decision = await until('its decision', async () => (await w.hand(['decisions', '--json'])).json, (d) => d?.length === 1, 30_000, 250);
  expect(decision[0]).toMatchObject({ worker: id, question: FAKE_PARK_QUESTION, state: 'open' });
  const session = (await until('its session', () => w.status(id), (s) => typeof s.session === 'string', 30_000, 200)).session;

  await killDaemonAndTmux(w);

  // Any command starts the daemon; it finds the worker lost and resumes it by the project's word.
  const mark = watermark(fake);
  await w.hand(['status', '--json']);
  const next = await w.request(id, mark, (r) => r.kind === 'main', 'the resumed conversation\'s first request').catch(async (err: Error) => {
    throw new Error(`${err.message}\n${readFileSync(join(w.home, 'daemon.log'), 'utf8').split('\n').filter((l) => /resum|lost|session/i.test(l)).slice(-8).join('\n')}`);
  });
  const typed = next.summary!.lastUserTexts.filter((t) => !t.trimStart().startsWith('<system-reminder>') && !t.startsWith('[Request interrupted'));
  expect(typed).toEqual([RESUME_LINE_WAITING]);
  // The question it asked earlier is in the conversation the model gets.
  expect(next.body).toContain(FAKE_PARK_QUESTION);

  const back = await until('it to be parked again', () => w.status(id), (s) => s.stage === 'parked', 60_000, 250);
  expect(back).toMatchObject({ session, live: true, waitingOn: FAKE_PARK_QUESTION });
  expect(readFileSync(w.reportPathOf(id), 'utf8')).toContain(`Waiting on: ${FAKE_PARK_QUESTION}`);
  expect((await w.hand(['decisions', '--json'])).json).toEqual([expect.objectContaining({ key: decision[0].key, state: 'open' })]);
}, 150_000);
