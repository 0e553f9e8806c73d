/**
 * `hand host check`: what a host needs before a worker can run there, each fact yes / no /
 * could-not-tell with its fix. ssh first (batch mode, a host key that must already be known);
 * when ssh cannot get in, nothing else is known, so the rest is could-not-tell — never "no".
 * A command the far side does not have (exit 127) is a "no".
 */
import type { HostFact } from '../../contract/methods/hosts.ts';
import { RemoteCommandError, runRemote } from './run-remote.ts';
import type { SshTarget } from './ssh-command.ts';
import { farPath } from './far-path.ts';
import { hostKeyChangedText, hostKeyChangeIn, hostKeyFix } from './host-key.ts';

/** The state directory's name under the remote HOME. */
export const REMOTE_STATE_DIR = '.kingshand';

/** Constant scripts; values arrive as positional arguments, never inside the script. */
const VERSION_OF = 'command -v "$1" >/dev/null 2>&1 || exit 127; shift; exec "$@"';
/**
 * $1 = PATH (the one a far worker starts with), $2 = program, then the argv that prints its
 * version (none: presence only). Prints where the program is, then the version's output (a
 * version that will not print leaves the program there all the same: "version not told").
 */
const AGENT_PROBE = 'PATH=$1; export PATH; p=$(command -v "$2") || exit 127; printf "%s\\n" "$p"; shift 2; [ $# -eq 0 ] && exit 0; "$@" 2>/dev/null || true';
/** The same, on the far account's own PATH (~/.local/bin first): where a landing from there looks for gh (far-tool.ts). */
const ACCOUNT_VERSION_OF = `PATH="$HOME/.local/bin:/usr/local/bin:/usr/bin:/bin"; ${VERSION_OF}`;
const MAKE_STATE_DIR = 'mkdir -p -m 700 -- "$1" && chmod 700 -- "$1" && test -w "$1" && ls -ld -- "$1"';

/** One agent CLI as a far host is asked about it (from its profile). */
export interface FarAgentProbe {
  name: string;
  label: string;
  /** The program a far worker starts, by name on farPath. */
  program: string;
  /** The argv printing its version there (program first), or null: presence only. */
  versionArgv(stateDir: string): string[] | null;
  parse(text: string): string | null;
  /** How to install it there. */
  fix: string;
}

export interface AgentPresence {
  answer: 'yes' | 'no' | 'could-not-tell';
  /** Where it is there (yes). */
  path?: string;
  version?: string;
  detail: string;
  fix?: string;
}

/** Whether `agent` is on the PATH a far worker starts with, and its version there. */
export async function probeAgent(target: SshTarget, home: string, stateDir: string, agent: FarAgentProbe): Promise<AgentPresence> {
  const path = farPath(home);
  const fix = `${agent.fix} — on ${target.user}@${target.address}, where ${path} finds ${agent.program} (a link in ~/.local/bin will do)`;
  try {
    const out = await runRemote(target, ['sh', '-c', AGENT_PROBE, 'sh', path, agent.program, ...(agent.versionArgv(stateDir) ?? [])], undefined, 30_000);
    const [where = '', ...rest] = out.split('\n');
    const version = agent.parse(rest.join('\n'));
    return { answer: 'yes', path: where.trim(), ...(version && { version }), detail: `${version ?? 'version not told'} at ${where.trim()}` };
  } catch (err) {
    if (!(err instanceof RemoteCommandError)) return { answer: 'could-not-tell', detail: String(err), fix: 'run hand host check again' };
    if (err.unreachable) return { answer: 'could-not-tell', detail: `ssh failed: ${firstLine(err.stderr)}`, fix: 'run hand host check again once ssh answers' };
    if (err.exitCode === 127) return { answer: 'no', detail: `${agent.program} is not on ${path}`, fix };
    return { answer: 'could-not-tell', detail: firstLine(err.stderr) || `exit ${err.exitCode}`, fix: 'run hand host check again' };
  }
}

export interface HostCheck {
  facts: HostFact[];
  /** The state directory on the far side (absolute), when ssh got in. */
  stateDir: string | null;
}

/** What the ssh fact says when ssh did not get in: a changed key in its own words, else ssh's first line. */
function sshDetail(stderr: string, target: SshTarget, name: string): string {
  const change = hostKeyChangeIn(stderr);
  return change ? hostKeyChangedText(name, target, change) : firstLine(stderr);
}

function sshFix(stderr: string, target: SshTarget, name: string): string {
  // A key that changed is not a key that was never known: the person verifies the new one.
  if (hostKeyChangeIn(stderr)) return hostKeyFix(name, target);
  if (/Host key verification failed|No .* host key is known/i.test(stderr)) {
    return `the host key of ${target.address}:${target.port} is not known: ssh there once yourself, compare the fingerprint, then hand host add … --known-hosts ~/.ssh/known_hosts`;
  }
  if (/Permission denied/i.test(stderr)) return `the key is not accepted for ${target.user}: add its public half to ~${target.user}/.ssh/authorized_keys, or give --identity <file>`;
  return `ssh -p ${target.port} ${target.user}@${target.address} must work in batch mode (no password, no prompt); check the address, the port and that sshd runs`;
}

const firstLine = (s: string) => s.trim().split('\n')[0] ?? '';

async function probe(target: SshTarget, what: string, argv: string[], fix: string): Promise<HostFact> {
  try {
    return { what, answer: 'yes', detail: firstLine(await runRemote(target, argv)) };
  } catch (err) {
    if (!(err instanceof RemoteCommandError)) return { what, answer: 'could-not-tell', detail: String(err), fix: 'run hand host check again' };
    if (err.unreachable) return { what, answer: 'could-not-tell', detail: `ssh failed: ${firstLine(err.stderr)}`, fix: 'run hand host check again once ssh answers' };
    if (err.exitCode === 127) return { what, answer: 'no', detail: 'not found on the PATH of a non-interactive ssh command', fix };
    return { what, answer: 'no', detail: firstLine(err.stderr) || `exit ${err.exitCode}`, fix };
  }
}

/** `name`: the host's name in the fleet, for the fixes that name a command. */
export async function checkHost(target: SshTarget, agents: readonly FarAgentProbe[], name = target.address): Promise<HostCheck> {
  let home: string;
  try {
    home = (await runRemote(target, ['sh', '-c', 'printf %s "$HOME"'])).trim();
  } catch (err) {
    const stderr = err instanceof RemoteCommandError ? err.stderr : String(err);
    const unknown = (what: string): HostFact => ({ what, answer: 'could-not-tell', detail: 'ssh did not get in', fix: 'fix ssh first' });
    return {
      facts: [
        { what: 'ssh', answer: 'no', detail: sshDetail(stderr, target, name), fix: sshFix(stderr, target, name) },
        unknown('git'), unknown('tmux'), ...agents.map((a) => ({ ...unknown('agent'), agent: a.name })), unknown('state-dir'), { ...unknown('gh'), for: 'direct-PR and no-mistakes projects' }, { ...unknown('no-mistakes'), for: 'no-mistakes projects' },
      ],
      stateDir: null,
    };
  }
  const ssh: HostFact = { what: 'ssh', answer: 'yes', detail: `${target.user}@${target.address}:${target.port}, batch mode, known host key` };
  if (!home.startsWith('/')) {
    return { facts: [ssh, { what: 'state-dir', answer: 'no', detail: `HOME on the far side is ${JSON.stringify(home)}`, fix: `give ${target.user} a home directory` }], stateDir: null };
  }
  const stateDir = `${home.replace(/\/+$/, '')}/${REMOTE_STATE_DIR}`;
  // One connection carries them all (the master ssh opened above).
  const [git, tmux, dir, gh, gate, ...found] = await Promise.all([
    probe(target, 'git', ['sh', '-c', VERSION_OF, 'sh', 'git', 'git', '--version'], 'install git on the host (sudo apt-get install -y git)'),
    probe(target, 'tmux', ['sh', '-c', VERSION_OF, 'sh', 'tmux', 'tmux', '-V'], 'install tmux on the host (sudo apt-get install -y tmux)'),
    probe(target, 'state-dir', ['sh', '-c', MAKE_STATE_DIR, 'sh', stateDir], `make ${stateDir} a directory ${target.user} owns and can write`),
    // Only a direct-PR project's workers need it there: they push and open the pull request from that host.
    probe(target, 'gh', ['sh', '-c', ACCOUNT_VERSION_OF, 'sh', 'gh', 'gh', '--version'], `install the GitHub CLI on the host for ${target.user} (sudo apt-get install gh, or into ~/.local/bin), then run gh auth login there`),
    // The review gate, for a no-mistakes project's workers: they run it there, and its outward step is released there.
    probe(target, 'no-mistakes', ['sh', '-c', ACCOUNT_VERSION_OF, 'sh', 'no-mistakes', 'no-mistakes', '--version'], `install no-mistakes on the host for ${target.user} (a release of github.com/kunchenguid/no-mistakes, into ~/.local/bin or /usr/local/bin)`),
    ...agents.map((a) => probeAgent(target, home, stateDir, a)),
  ]);
  const agentFacts: HostFact[] = found.map((f, i) => ({
    what: 'agent',
    agent: agents[i]!.name,
    answer: f.answer,
    detail: f.detail,
    ...(f.version && { version: f.version }),
    ...(f.fix && { fix: f.fix }),
  }));
  (gh as HostFact).for = 'direct-PR and no-mistakes projects';
  (gate as HostFact).for = 'no-mistakes projects';
  if (dir!.answer === 'yes') {
    const private0700 = dir!.detail.startsWith('drwx------');
    Object.assign(dir!, private0700
      ? { detail: `${stateDir} (0700)` }
      : { answer: 'no', detail: `${stateDir} is ${dir!.detail.split(' ')[0]}, not private`, fix: `chmod 700 ${stateDir} on the host` });
  }
  return { facts: [ssh, git!, tmux!, ...agentFacts, dir!, gh as HostFact, gate as HostFact], stateDir };
}
