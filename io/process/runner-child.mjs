// The process runner's far side (io/process/runner.ts): a small Node process that starts the
// daemon's git commands for it (whatever runner.ts sends). One request a line on stdin, one answer a line
// on stdout, both JSON; each command with an argv array and never a shell, as execFile runs it.
// The answer carries what execFile said (the error's fields, not a verdict): run-argv.ts turns it
// into a result the same way for a command started here or in the daemon itself. Ends when its
// stdin closes (the daemon went away); commands already started finish on their own.
import { execFile } from 'node:child_process';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const answer = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);

lines.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  let child;
  try {
    child = execFile(
      req.file,
      req.args,
      { cwd: req.cwd, env: req.env, encoding: 'utf8', timeout: req.timeoutMs ?? 0, killSignal: 'SIGKILL', maxBuffer: req.maxBuffer, shell: false, windowsHide: true },
      (err, stdout, stderr) => {
        const e = err ? { code: err.code, killed: err.killed, signal: err.signal, message: err.message } : null;
        answer({ id: req.id, err: e, stdout: stdout ?? '', stderr: stderr ?? '' });
      },
    );
  } catch (err) {
    answer({ id: req.id, err: { code: err?.code, message: String(err?.message ?? err) }, stdout: '', stderr: '' });
    return;
  }
  // A child that exits before reading its stdin must not end us with EPIPE.
  child.stdin?.on('error', () => {});
  if (req.input !== undefined) child.stdin?.end(req.inputBase64 ? Buffer.from(req.input, 'base64') : req.input);
  else child.stdin?.end();
});
lines.on('close', () => process.exit(0));
