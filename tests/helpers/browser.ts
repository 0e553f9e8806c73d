/**
 * A real headless Chromium for the review page's tests, screenshots and bench: Debian's
 * `chromium` package driven by playwright-core. Nothing is downloaded: playwright-core ships no
 * browser, and a missing binary is a clear failure naming the install command.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_BIN = process.env.KH_CHROMIUM ?? '/usr/bin/chromium';

/** `args`: more switches, e.g. `--host-resolver-rules=MAP phone.test 127.0.0.1` to reach the page by a public URL's name. */
export async function launchChromium(args: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_BIN)) {
    throw new Error(`no Chromium at ${CHROMIUM_BIN}: install Debian's package (apt-get update && apt-get install -y chromium) or set KH_CHROMIUM to a Chromium binary.`);
  }
  // --no-sandbox: CI and these machines run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM_BIN, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...args] });
}
