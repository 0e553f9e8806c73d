/**
 * Machines the fleet reaches over ssh (issue 28): a host is a row with its facts; `local` is the
 * daemon's own machine and always there. A check answers each fact yes / no / could-not-tell,
 * with the fix a person can apply.
 */
export type Tell = 'yes' | 'no' | 'could-not-tell';

export interface HostFact {
  /** ssh, git, tmux, agent, state-dir */
  what: string;
  answer: Tell;
  /** The version or path found, or what failed. */
  detail: string;
  /** What to do when the answer is not yes. */
  fix?: string;
  /** For an `agent` fact: which agent CLI (one fact per CLI a far worker can run). */
  agent?: string;
  /** For an `agent` fact that is yes: its version there, when it told. */
  version?: string;
  /** Set when only some workers need it (gh: "direct-PR projects"): a no here leaves the host ready for the others. */
  for?: string;
}

/**
 * A host is ready when every fact every worker needs is yes — the agents aside, of which at
 * least one must be there; a fact `for` some projects only is said, not required.
 */
export function hostReady(facts: readonly HostFact[]): boolean {
  const agents = facts.filter((f) => f.what === 'agent');
  return facts.every((f) => f.what === 'agent' || f.answer === 'yes' || f.for !== undefined) && agents.some((f) => f.answer === 'yes');
}

export interface HostRow {
  name: string;
  /** null for `local`. */
  user: string | null;
  address: string | null;
  port: number | null;
  identity: string | null;
  /** The state directory on that host, once a check learnt it. */
  stateDir: string | null;
  checkedAt: string | null;
  /** The last check's facts (empty before the first). */
  facts: HostFact[];
  /** `hand host list`: its key changed since it was last accepted (issue 43), in words; null or absent: not seen. */
  keyChanged?: string | null;
}

export interface HostAddParams {
  name: string;
  /** user@address */
  destination: string;
  port?: number;
  identity?: string;
  /** A known_hosts file holding the host's key, copied into the daemon's own known_hosts. */
  knownHosts?: string;
}
export interface HostNameParams { name: string }
/** `hand host trust <name> --known-hosts <file>`: the person accepts the host's new key, from a file holding it. */
export interface HostTrustParams { name: string; knownHosts: string }
export interface HostTrustResult { name: string; keys: number; replaced: number; wasChanged: boolean }

/** Where a project's checkout is on a host (issue 28); `default`: its workers go there when a dispatch names no host. */
export interface ProjectHost { host: string; path: string; default: boolean }
/** `hand project host <project> <host> <path> [--default]`. */
export interface ProjectHostParams { name: string; host: string; path: string; default?: boolean }
export interface ProjectHostResult { name: string; hosts: ProjectHost[] }
export interface HostCheckResult { name: string; ok: boolean; facts: HostFact[] }
export type HostRemoveResult = HostRow & { removed: true };
