/**
 * How a grant is written down: its value quoted as a JSON string (it cannot close its own quote
 * or start a line of its own), bounded, control characters flattened; a value under a name that
 * looks like a secret is never shown (a committed `.env` may hold a real key, and the evidence
 * reaches the Hand's model), only its length. The full value is kept as `canon` for comparing.
 */
import type { ReadGrant } from './types.ts';
import type { AgentSettingsGrant } from '../../../contract/methods/agent-settings.ts';

export const SAYS_MAX = 200;

const SECRET_NAME = /key|token|secret|passw|credential|auth|cookie|session|private|bearer/i;

/** JSON with object keys sorted at every depth: two equal values give equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A quoted, bounded, single-line rendering of repository text. */
export function quoted(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  const cut = flat.length > SAYS_MAX ? `${flat.slice(0, SAYS_MAX - 1)}…` : flat;
  return JSON.stringify(cut);
}

/** A value as text: strings as they are, anything else as its JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : canonical(value);
}

export function secretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function grant(kind: AgentSettingsGrant['kind'], key: string, value: unknown, shown?: string): ReadGrant {
  return { kind, key, says: shown ?? quoted(asText(value)), canon: `${kind}|${key}|${canonical(value)}` };
}

/** An environment variable: the name always, the value only when the name does not look secret. */
export function envGrant(key: string, name: string, value: unknown): ReadGrant {
  const text = asText(value);
  const shown = secretName(name) ? `${name}=<hidden, ${text.length} characters>` : `${name}=${quoted(text)}`;
  return grant('env', key, value, shown);
}

/** Names of an `env` block, for an MCP server's line (values are compared, not shown). */
export function envNames(env: unknown): string {
  if (env === null || typeof env !== 'object' || Array.isArray(env)) return '';
  const names = Object.keys(env);
  return names.length ? ` (env: ${names.map((n) => JSON.stringify(n)).join(', ')})` : '';
}
