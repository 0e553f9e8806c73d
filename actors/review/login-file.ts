/**
 * The private file `hand review --open` hands the browser (issue 37 item 4), as notebook servers
 * do: an HTML page that posts the one-time login code to the review page. The browser's argv
 * carries only the file's path; the code is inside, readable by the person alone:
 *  - the directory `<state>/review-login` is 0700 (in the 0700 state directory), made by the
 *    daemon and never followed if it is a link;
 *  - each file is created new (O_EXCL, O_NOFOLLOW) with mode 0600, under a random name that says
 *    nothing about the code;
 *  - the file is removed when its code is redeemed, expires or is revoked, and the directory is
 *    emptied when the page starts (a killed daemon's codes are dead anyway).
 * The code goes in a POST body, not a URL: it stays out of the browser's history and any log.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import { esc } from './html.ts';

/** Where the sign-in files live. */
export function loginDir(home: string): string {
  return join(home, 'review-login');
}

/**
 * Makes (or checks) the 0700 directory, refusing a link or a file in its place; `empty` removes
 * the sign-in files left in it (at start: a killed daemon's codes are dead).
 */
export function prepareLoginDir(home: string, empty = false): string {
  const dir = loginDir(home);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) {
    throw new RefusedError('review-login-dir', `${dir} is not a plain directory; remove it and restart the daemon (hand daemon stop).`, { path: dir });
  }
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new RefusedError('review-login-dir', `${dir} belongs to another user (uid ${st.uid}); remove it and restart the daemon.`, { path: dir });
  }
  chmodSync(dir, 0o700);
  if (empty) for (const name of readdirSync(dir)) if (name.endsWith('.html')) rmSync(join(dir, name), { force: true });
  return dir;
}

/** The page the file holds: a form posting the code, sent at once by its script or by a click. */
export function loginPage(action: string, code: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Signing in · kingshand</title>
</head>
<body>
<form method="post" action="${esc(action)}">
<input type="hidden" name="code" value="${esc(code)}">
<p>Signing in to the kingshand review page… <button type="submit">Sign in</button></p>
</form>
<script>document.forms[0].submit();</script>
</body>
</html>
`;
}

/** Writes a new 0600 sign-in file for `code` posting to `action`; returns its path. */
export function writeLoginFile(dir: string, action: string, code: string): string {
  const path = join(dir, `${randomBytes(12).toString('hex')}.html`);
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, loginPage(action, code));
  } finally {
    closeSync(fd);
  }
  return path;
}
