/**
 * herdr agent names and kinds.
 *
 * herdr rejects (does not normalise) names outside `^[a-z][a-z0-9_-]{0,31}$`. Our worker ids are
 * kept as they are everywhere else; only herdr sees the normalised name (control-plane §1.3).
 * Stripping or truncating alone would map distinct ids onto one name (`9lives`/`lives`, two long
 * ids sharing a prefix), and two live workers under one name misroute each other's prompts — so
 * whenever anything is discarded, a digest of the original id is appended. Deterministic and
 * idempotent: re-normalising a normalised name returns it unchanged.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../../../contract/errors.ts';

export const HERDR_AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** Agent kinds `agent start --kind` accepts (reference §1.4); the kind is also the executable. */
export const HERDR_AGENT_KINDS: readonly string[] = [
  'pi', 'claude', 'codex', 'gemini', 'cursor', 'devin', 'agy', 'cline', 'omp', 'mastracode', 'opencode', 'copilot',
  'kimi', 'kiro', 'droid', 'amp', 'grok', 'hermes', 'kilo', 'qodercli', 'qwen', 'maki',
];

const trimSeparators = (s: string) => s.replace(/[-_]+$/, '');

export function herdrAgentName(id: string): string {
  const clean = id.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  const lead = clean.replace(/^[^a-z]+/, '');
  if (lead.replace(/[-_]/g, '') === '') {
    throw new UsageError('bad-agent-name', `worker id ${JSON.stringify(id)} has no letter in it; herdr needs a name that starts with one`);
  }
  if (lead === clean && clean.length <= 32) return trimSeparators(clean);
  const digest = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 6);
  const stem = trimSeparators(trimSeparators(lead).slice(0, 25));
  return `${stem}-${digest}`;
}
