/**
 * Rules specific to the pty host: exit is reported only after the output drained, panes die
 * with the process (and say so), resize moves emulator and pty together, cell attributes and
 * the app's cursor-key mode are honoured.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPtyHost, type PtyHost } from '../../io/terminal/pty/pty-host.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { screenText, waitForExit, waitForReading } from './mock-worker.ts';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('pty host', () => {
  const hosts: PtyHost[] = [];
  const dirs: Array<() => void> = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.dispose();
    for (const c of dirs.splice(0)) c();
  });
  function setup() {
    const host = createPtyHost();
    hosts.push(host);
    const dir = makeTempDir('pty-host');
    dirs.push(dir.cleanup);
    return { host, dir: dir.path };
  }
  const node = (script: string) => [process.execPath, '-e', script];
  /** A fresh host with one pane, in a temp dir, running `node -e script`. */
  async function nodePane(name: string, script: string) {
    const { host, dir } = setup();
    const pane = await host.createPane({ name, cwd: dir, env: { PATH }, argv: node(script) });
    return { host, pane };
  }

  it('reports the exit only after the last output is on the screen', async () => {
    const { host, pane } = await nodePane('burst', `let s=''; for (let i = 0; i < 3000; i++) s += 'line ' + i + '\\n'; process.stdout.write(s + 'LAST LINE', () => process.exit(7));`);
    const code = await waitForExit(host, pane.paneId, 'the burst writer to exit');
    expect(code).toBe(7);
    const read = await host.readVisible(pane.paneId);
    expect(read.ok && read.screen.lines.map((l) => l.text)).toContain('LAST LINE');
  });

  it('panes die with the process: list() says so and attach() knows only this process', async () => {
    const { host, dir } = setup();
    expect(host.survivesRestart).toBe(false);
    const pane = await host.createPane({ name: 'cat', cwd: dir, env: { PATH }, argv: ['cat'] });
    const listed = await host.list();
    expect(listed.ok && listed.panes).toEqual([expect.objectContaining({ paneId: pane.paneId, alive: true, survivesRestart: false })]);
    expect(await host.attach(pane.paneId)).toMatchObject({ paneId: pane.paneId });
    expect(await createPtyHost().attach(pane.paneId)).toBeNull();
    await host.close(pane.paneId);
    expect(await host.list()).toEqual({ ok: true, panes: [] });
    const gone = await host.readVisible(pane.paneId);
    expect(gone.ok).toBe(false);
  });

  it('resize changes what the app sees and what is read back', async () => {
    const { host, pane } = await nodePane('size', `const show = () => console.log('size ' + process.stdout.columns + 'x' + process.stdout.rows); show(); process.stdout.on('resize', show); setInterval(() => {}, 1000);`);
    await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('size 120x40'), 'the initial size');
    await host.resize(pane.paneId, 100, 30);
    const after = await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('size 100x30'), 'the new size');
    expect(after.screen.cols).toBe(100);
    expect(after.screen.rows).toBe(30);
  });

  it('keeps cell attributes (dim, bold, inverse, colours) as spans', async () => {
    const { host, pane } = await nodePane('attrs', `process.stdout.write('\\x1b[2mdim\\x1b[0m \\x1b[1;31mred\\x1b[0m \\x1b[7minv\\x1b[0m \\x1b[38;5;244mgrey\\x1b[0m'); setInterval(() => {}, 1000);`);
    const seen = await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('grey'), 'the styled line');
    const row = seen.screen.lines.find((l) => l.text.includes('grey'))!;
    expect(seen.screen.hasAttributes).toBe(true);
    expect(row.spans).toEqual([
      { text: 'dim', attrs: { dim: true } },
      { text: ' ', attrs: {} },
      { text: 'red', attrs: { bold: true, fg: '31' } },
      { text: ' ', attrs: {} },
      { text: 'inv', attrs: { inverse: true } },
      { text: ' ', attrs: {} },
      { text: 'grey', attrs: { fg: '38;5;244' } },
    ]);
  });

  it('arrow keys follow the cursor-key mode the app asked for', async () => {
    const { host, pane } = await nodePane('keys', `process.stdin.setRawMode(true); process.stdout.write('\\x1b[?1hready\\r\\n'); process.stdin.on('data', (d) => console.log('got ' + JSON.stringify(d.toString()))); setInterval(() => {}, 1000);`);
    await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('ready'), 'the app to switch to application cursor keys');
    await host.sendKey(pane.paneId, 'up');
    await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('got "\\u001bOA"'), 'the application-mode arrow');
  });
});
