/**
 * `hand review [--open]`: the review page's URL (with this state directory's token), and with
 * --open the person's browser pointed at it (xdg-open on Linux, open on macOS; argv, no shell).
 */
import { RefusedError } from '../../contract/errors.ts';

/** The browser program to start instead of the platform's opener (a path; it gets the URL as its one argument). */
export const BROWSER_ENV = 'HAND_BROWSER';

export function openerArgv(url: string, platform: NodeJS.Platform = process.platform, env: Record<string, string | undefined> = {}): [string, string[]] {
  const chosen = env[BROWSER_ENV]?.trim();
  if (chosen) return [chosen, [url]];
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['explorer.exe', [url]];
  return ['xdg-open', [url]];
}

export async function openInBrowser(url: string, env: Record<string, string | undefined> = process.env): Promise<void> {
  const [file, args] = openerArgv(url, process.platform, env);
  try {
    // Detached: the browser outlives this command, and its output is not ours to print.
    const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
    const child = execa(file, args, { detached: true, stdio: 'ignore', reject: false, cleanup: false });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
    child.unref();
  } catch (err) {
    throw new RefusedError('browser-open-failed', `could not start ${file} to open the page (${(err as Error).message}); open the URL yourself.`, { opener: file });
  }
}
