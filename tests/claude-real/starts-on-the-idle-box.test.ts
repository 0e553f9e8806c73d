/**
 * A Claude Code start on a seeded HOME from its first screen to /exit, once per renderer: the
 * idle box (read only, first), for the classic start the approved API key's use, then /exit.
 * One start per renderer serves all three rules (the /exit tests had two starts of their own,
 * ~2 s of CPU and 3-5 s of start-up each, for a screen these starts already reach). The
 * fullscreen start runs with git and ssh on its PATH logging what it asks of them: from its
 * start to its exit it reaches no host (no test reaches beyond the machine), no clone of the
 * official plugin marketplace from github.com, which Claude Code begins at every start unless
 * told not to (claude-env.ts).
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PATH } from '../harness/claude-env.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { LIVE_BOX, WORKING_HINT } from '../harness/real-claude.ts';
import { waitFor } from '../helpers/temp.ts';
import { readPane, submit, useRealClaude, waitIdle, type Started } from './real-claude-fixture.ts';

const IDLE = 'renderer: the live box (❯ + U+00A0) shows, nothing is working, the renderer is the pinned one';

/** What a start on a seeded HOME shows before anyone types: read only, so it runs first on a shared start. */
async function showsTheIdleBox(started: Started, renderer: 'fullscreen' | 'classic'): Promise<void> {
  const { pane, fake } = started;
  const screen = await waitIdle(pane, `${renderer} start`);
  expect(screen).toMatch(LIVE_BOX);
  expect(screen).not.toContain(WORKING_HINT);
  // No onboarding, API-key or trust screen got in the way.
  expect(screen).not.toMatch(/trust this folder|Detected a custom API key|Choose the text style/);
  expect(await pane.format('#{alternate_on}')).toBe(renderer === 'fullscreen' ? '1' : '0');
  expect(await readPane(pane)).toMatchObject({ state: 'idle', promptBox: '', promptBoxKind: 'empty', readable: true });
  // Starting sends no model request: the first one belongs to the first prompt.
  expect(fake.received.filter((r) => r.path === '/v1/messages')).toEqual([]);
}

/** /exit typed at the idle box ends the program with status 0; the pane and its last screen stay readable. */
async function exitsWithStatus0(started: Started): Promise<void> {
  const { pane } = started;
  await waitIdle(pane, 'the box before /exit');
  await pane.type('/exit');
  // The slash menu opens as the command is typed; Enter must land after it settles.
  await pane.waitStable('the slash menu on /exit', {
    accept: (s) => s.includes('❯\u00A0/exit') && /^ {2}❯ \/exit\s+Exit the CLI/m.test(s),
  });
  await pane.keys('Enter');
  const status = await pane.waitDead();
  expect(status).toMatchObject({ dead: true, status: 0 });
  // remain-on-exit keeps the pane (and its last screen) for reading; fullscreen has left the alt screen.
  expect(await pane.capture()).toContain('Pane is dead (status 0');
  expect(await pane.format('#{alternate_on}')).toBe('0');
  expect(await readPane(pane)).toMatchObject({ state: 'exited', promptBox: null });
}

const EXIT = '/exit ends Claude Code with status 0 and the pane stays readable';

/**
 * A directory of `git` and `ssh` that log each call (program and arguments, one line) to `log`
 * and run the real one: put first on a PATH, it shows what a program asks of them.
 */
function loggingShims(dir: string, log: string): void {
  for (const program of ['git', 'ssh']) {
    const real = ['/usr/bin', '/usr/local/bin', '/bin'].map((d) => join(d, program)).find((p) => existsSync(p));
    if (!real) throw new Error(`no ${program} in /usr/bin, /usr/local/bin or /bin to put a logging shim in front of`);
    writeFileSync(join(dir, program), `#!/bin/sh\nprintf '%s\\n' "${program} $*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(dir, program), 0o755);
  }
}

describe.sequential('a seeded HOME starts Claude Code straight on the idle input box (fullscreen, bearer token)', () => {
  const start = useRealClaude('all');
  const shims = makeTempDir('claude-shims');
  const log = join(shims.path, 'calls.log');
  let started: Started;
  beforeAll(async () => {
    loggingShims(shims.path, log);
    started = await start({ renderer: 'fullscreen', path: `${shims.path}:${DEFAULT_PATH}` });
  });
  afterAll(() => shims.cleanup());

  it(`fullscreen ${IDLE}`, async () => {
    await showsTheIdleBox(started, 'fullscreen');
  });

  it(`${EXIT}: fullscreen renderer`, async () => {
    await exitsWithStatus0(started);
  });

  it('from its start to its exit it reached no host: no ssh, no clone of a plugin marketplace', () => {
    const calls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    // The shims were in its way: it ran git on its worktree at start (status, config, files).
    expect(calls.filter((c) => c.startsWith('git ')).length, calls.join('\n')).toBeGreaterThan(0);
    expect(calls.filter((c) => c.startsWith('ssh ') || /\bclone\b|github\.com|marketplace/.test(c)), calls.join('\n')).toEqual([]);
  });
});

// The classic start authenticates with an approved API key (the fullscreen one with the bearer
// token): one start shows the classic idle box, the key's use and the exit, in this order.
describe.sequential('classic renderer, with an API key approved by the seed', () => {
  const start = useRealClaude('all');
  const apiKey = 'sk-ant-api03-kh-fake-key-for-tests-only-0123456789ABCDEFGHIJ';
  let started: Started;
  beforeAll(async () => {
    started = await start({ renderer: 'classic', apiKey });
  });

  it(`classic ${IDLE}`, async () => {
    await showsTheIdleBox(started, 'classic');
  });

  it('the approved key is used without the "Detected a custom API key" question', async () => {
    const { pane, fake } = started;
    await waitIdle(pane, 'start with an approved key');
    expect(await readPane(pane)).toMatchObject({ state: 'idle' });
    await submit(pane, 'hello');
    const request = await waitFor(() => fake.received.find((r) => r.kind === 'main'), { what: 'the first model request' });
    expect(request.auth).toBe('api-key');
  });

  it(`${EXIT}: classic renderer`, async () => {
    await exitsWithStatus0(started);
  });
});
