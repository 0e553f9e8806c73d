// What the suite needs from the machine, checked before anything runs (issue 44): a fresh machine
// without Chromium or sshd used to run for five minutes and then fail eleven files. Each missing
// command is named with its Debian package, and one command installs them all. Checked in well
// under a second: `command -v` for each, and one tiny sandbox for bubblewrap (installed is not
// enough: a kernel without unprivileged user namespaces cannot build one).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** [what the suite uses it for, the command or absolute path, the Debian package]. */
const NEEDS = [
  ['git worktrees and landings', 'git', 'git'],
  ["the workers' terminals", 'tmux', 'tmux'],
  ["the review page's tests (playwright-core downloads no browser)", process.env.KH_CHROMIUM ?? '/usr/bin/chromium', 'chromium'],
  ["kingshand's sandbox around every worker", 'bwrap', 'bubblewrap'],
  ["a test that reaches the daemon's socket as another account", 'socat', 'socat'],
  ['the SSH host tests (a real sshd on 127.0.0.1)', '/usr/sbin/sshd', 'openssh-server'],
  ['the SSH host tests (the client)', 'ssh', 'openssh-client'],
];

function found(cmd) {
  if (cmd.startsWith('/')) return existsSync(cmd);
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', cmd], { stdio: 'ignore' }).status === 0;
}

/** Lines saying what is missing and how to install it; [] when the machine has everything. */
export function missingPrerequisites() {
  const missing = NEEDS.filter(([, cmd]) => !found(cmd));
  const out = missing.map(([why, cmd, pkg]) => `  ${cmd} (Debian package ${pkg}): ${why}`);
  if (!missing.length && found('bwrap')) {
    const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-user', '--unshare-pid', '--dev', '/dev', '--proc', '/proc', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000 });
    if (r.status !== 0) out.push(`  bwrap is installed but cannot build a sandbox here: ${String(r.stderr ?? '').trim() || `exit ${r.status}`} (unprivileged user namespaces off? sysctl kernel.unprivileged_userns_clone=1)`);
  }
  if (!out.length) return [];
  const pkgs = missing.map(([, , pkg]) => pkg);
  return [
    'The suite needs, and this machine lacks:',
    ...out,
    ...(pkgs.length ? [`Install them: sudo apt-get update && sudo apt-get install -y ${pkgs.join(' ')}   (or run .ci/run, which installs them and runs the suite)`] : []),
    'Run a part of the suite anyway: npm test -- <test files>',
  ];
}

// Run directly: the check alone (exit 1 when something is missing).
if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = missingPrerequisites();
  process.stdout.write(lines.length ? `${lines.join('\n')}\n` : 'every prerequisite of the suite is here\n');
  process.exit(lines.length ? 1 : 0);
}
