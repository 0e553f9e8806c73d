/**
 * A far host whose key changed (issue 43). The daemon's ssh checks a host's key strictly against
 * its own known_hosts, and one master connection per host carries everything; while that master
 * lives, a changed key goes unnoticed. Once a new connection is needed (a daemon restart, the
 * master gone), OpenSSH refuses with
 *   @@@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @@@ … The fingerprint for the ED25519
 *   key sent by the remote host is SHA256:… … Host key verification failed.
 * That was an "internal error … tmux send-keys failed (exit 255)" for a send, and a worker that
 * never said why it could not be told. It is the host's own condition: read here from ssh's
 * words, with the fingerprint now offered, and said with how to verify and accept the key.
 */
export interface HostKeyChange {
  /** The fingerprint the host offers now (`SHA256:…`), when ssh said it. */
  offered: string | null;
  /** Its key type (ED25519, RSA, ECDSA), when ssh said it. */
  keyType: string | null;
}

const CHANGED = /REMOTE HOST IDENTIFICATION HAS CHANGED|^Host key for \S+ has changed/m;
const OFFERED = /The fingerprint for the (\S+) key sent by the remote host is\s+(SHA256:[A-Za-z0-9+/=]+)/;

/** The change ssh reported in `stderr`, or null when it reported none. */
export function hostKeyChangeIn(stderr: string): HostKeyChange | null {
  if (!CHANGED.test(stderr)) return null;
  const m = OFFERED.exec(stderr);
  return { offered: m?.[2] ?? null, keyType: m?.[1] ?? null };
}

/** `[address]:port`, or the address alone on port 22, as known_hosts and ssh name the host. */
export function knownHostsName(address: string, port: number): string {
  return port === 22 ? address : `[${address}]:${port}`;
}

/** The condition in a person's words: what changed and what it offers now. */
export function hostKeyChangedText(host: string, where: { user: string; address: string; port: number }, change: HostKeyChange): string {
  const offered = change.offered ? `; it now offers ${change.offered}${change.keyType ? ` (${change.keyType})` : ''}` : '';
  return `host key changed: ${host} (${knownHostsName(where.address, where.port)}) no longer shows the key kingshand knows${offered}. Nothing is typed into its workers until the key is verified and accepted`;
}

/** How to verify the new key and accept it: the commands. */
export function hostKeyFix(host: string, where: { user: string; address: string; port: number }): string {
  const login = `${where.user}@${where.address}`;
  return `verify the new key with the host's administrator (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), compare it with what ssh -p ${where.port} ${login} shows you, and once it matches and you accepted it there, accept it here: hand host trust ${host} --known-hosts ~/.ssh/known_hosts`;
}
