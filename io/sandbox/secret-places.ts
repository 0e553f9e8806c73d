/**
 * Places that do not exist inside a worker's sandbox, beside kingshand's own state directory:
 * the person's credentials under their home, the person's own agent configuration and
 * conversations (a worker's agent gets a directory of its own instead), and the system's secrets.
 * Each is hidden where it exists; a place added here is hidden from every agent alike.
 */
import { join } from 'node:path';

/** Credentials and keys under a home directory (files or directories), relative to it. */
export const HOME_CREDENTIALS = [
  '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.netrc', '.git-credentials',
  '.config/gh', '.config/hub', '.config/gcloud', '.config/op', '.config/rclone', '.config/git/credentials',
  '.npmrc', '.yarnrc.yml', '.pypirc', '.gem/credentials', '.cargo/credentials', '.cargo/credentials.toml',
  '.m2/settings.xml', '.terraform.d', '.vault-token', '.password-store', '.local/share/keyrings', '.pki',
  '.mozilla', '.config/google-chrome', '.config/chromium',
] as const;

/**
 * The person's own agent configuration: their settings, credentials and every conversation they
 * had (transcripts hold whatever was pasted into them). A worker's agent runs from a directory of
 * its own (worker-sandbox.ts), so these are hidden from every worker, whatever its agent.
 */
export const HOME_AGENT_PLACES = [
  '.claude', '.claude.json', '.codex', '.gemini', '.qwen',
  // OpenCode's sessions, login, prompt history (its config in ~/.config/opencode is settings, read as they are).
  '.local/share/opencode', '.local/state/opencode',
] as const;

/** System files only root should read; hidden from a worker even when the person is root. */
export const SYSTEM_SECRET_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-', '/etc/sudoers', '/etc/sudoers.d', '/etc/ssh/ssh_host_rsa_key', '/etc/ssh/ssh_host_ecdsa_key', '/etc/ssh/ssh_host_ed25519_key', '/etc/ssh/ssh_host_dsa_key'] as const;

/** Every secret place under `home`, absolute. */
export function homeSecretPlaces(home: string): string[] {
  return [...HOME_CREDENTIALS, ...HOME_AGENT_PLACES].map((rel) => join(home, rel));
}
