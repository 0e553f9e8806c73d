/**
 * What `annex` proposes for a repository before anything is registered (workflow §1.3 step 2):
 * propose rather than ask. With an `origin` remote the strongest push-capable posture this
 * machine can run is proposed (no-mistakes-prod-only when the no-mistakes gate is installed,
 * else direct-PR when gh is), else local-only; yolo is always proposed off. Every posture is
 * listed with whether it can be registered now and, if not, the refusal `annex` would give —
 * the same check (posture-checks.ts), so a proposal never promises what registration refuses.
 */
import { POSTURES, type Posture } from '../../contract/vocabulary.ts';
import { originUrl, registrationProblem } from './posture-checks.ts';

export interface PostureOption { posture: Posture; ready: boolean; problem: string | null; fix: string | null }

export interface PostureProposal {
  /** The remote's URL with any user or password taken out (a token in a URL is a secret). */
  origin: string | null;
  posture: Posture;
  why: string;
  options: PostureOption[];
}

/** `https://user:token@host/x` → `https://host/x`; scp-like `git@host:x` is kept (the user there is no secret). */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}

export async function proposePosture(repo: string, env: Record<string, string | undefined>): Promise<PostureProposal> {
  const origin = await originUrl(repo);
  const options: PostureOption[] = [];
  for (const posture of POSTURES) {
    const problem = await registrationProblem(posture, repo, env);
    const fix = problem ? (typeof problem.details?.fix === 'string' ? problem.details.fix : null) : null;
    options.push({ posture, ready: problem === null, problem: problem?.message ?? null, fix });
  }
  const ready = (p: Posture) => options.find((o) => o.posture === p)?.ready === true;
  if (!origin) return { origin: null, posture: 'local-only', why: 'no origin remote: work lands on the local base branch', options };
  const shown = withoutCredentials(origin);
  if (ready('no-mistakes-prod-only')) return { origin: shown, posture: 'no-mistakes-prod-only', why: `origin is ${shown} and the no-mistakes gate is installed: work goes through the gate, production changes wait for you`, options };
  if (ready('direct-PR')) return { origin: shown, posture: 'direct-PR', why: `origin is ${shown} and gh is ready: each landing opens a pull request`, options };
  return { origin: shown, posture: 'local-only', why: `origin is ${shown}, but no push-capable posture can run here yet (see each option's fix): work lands locally until then`, options };
}
