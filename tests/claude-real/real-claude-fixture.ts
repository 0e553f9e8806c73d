/**
 * Per-test plumbing for the real-binary tests: a fake model server and one real Claude Code in
 * a private tmux server, both torn down after each test (or, with scope 'all', after the
 * describe block whose beforeAll started them) whatever happened.
 */
import { afterAll, afterEach } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from '../../io/fake-model/anthropic.ts';
import { showsIdleBox, startRealClaude, type RealClaude, type RealClaudeOptions } from '../harness/real-claude.ts';
import type { TmuxPane } from '../harness/claude-tmux.ts';
import { analyseScreen, parseAnsi, type ScreenReading } from '../../io/screen/index.ts';

export interface Started {
  fake: FakeAnthropic;
  claude: RealClaude;
  pane: TmuxPane;
}

/**
 * scope 'all': the start is shared by the tests of a block (called from beforeAll, torn down in
 * afterAll). A Claude Code start is ~2 s of CPU: tests that only read the same start share it.
 */
export function useRealClaude(scope: 'each' | 'all' = 'each'): (opts: Omit<RealClaudeOptions, 'baseUrl'>, fakeOpts?: FakeAnthropicOptions) => Promise<Started> {
  const cleanups: (() => Promise<void>)[] = [];
  (scope === 'all' ? afterAll : afterEach)(async () => {
    const errors: unknown[] = [];
    for (const c of cleanups.splice(0).reverse()) await c().catch((e: unknown) => errors.push(e));
    if (errors.length > 0) throw errors[0];
  });
  return async (opts, fakeOpts) => {
    const fake = await startFakeAnthropic(fakeOpts);
    cleanups.push(() => fake.close());
    const claude = await startRealClaude({ ...opts, baseUrl: fake.url });
    cleanups.push(() => claude.dispose());
    return { fake, claude, pane: claude.pane };
  };
}

/** Waits for the live box with no working footer, then for the screen to settle (logo frames, late dialogs). */
export function waitIdle(pane: TmuxPane, what: string): Promise<string> {
  return pane.waitStable(`${what}: the idle input box`, { accept: showsIdleBox });
}

/** Types a prompt, waits until the box shows it (keys reached the program), then presses Enter. */
export async function submit(pane: TmuxPane, text: string): Promise<void> {
  await pane.type(text);
  await pane.waitForScreen((s) => s.split('\n').some((l) => l.startsWith('❯\u00A0') && l.includes(text)), `the box to echo ${JSON.stringify(text)}`);
  await pane.keys('Enter');
}

/** What the product's own screen analysis makes of the pane right now (capture with attributes). */
export async function readPane(pane: TmuxPane): Promise<ScreenReading> {
  const [cols, rows] = (await pane.format('#{pane_width} #{pane_height}')).split(' ').map(Number);
  return analyseScreen(parseAnsi(await pane.capture({ ansi: true }), { cols, rows }));
}
