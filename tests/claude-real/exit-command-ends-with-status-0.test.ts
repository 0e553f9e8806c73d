import { describe, expect, it } from 'vitest';
import { readPane, useRealClaude, waitIdle } from './real-claude-fixture.ts';

describe('/exit ends Claude Code with status 0 and the pane stays readable', () => {
  const start = useRealClaude();

  it.each(['fullscreen', 'classic'] as const)('%s renderer', async (renderer) => {
    const { pane } = await start({ renderer });
    await waitIdle(pane, 'start');
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
  });
});
