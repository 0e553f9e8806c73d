/**
 * Rule (issue 40): the page's annotate action goes through the same door as its other actions
 * (page-gate.ts: a session cookie, the session's header token, the page's own origin) and the
 * daemon's edge (daemon/annotations/annotation-methods.ts): each way in below is tried and refused, and nothing is stored
 * — without a session, with a wrong header token, from another origin, a body past the page's
 * bound, a note past ANNOTATION_MAX_CHARS, a control or an invisible character, an unknown worker,
 * an item the worker's review does not have. The person's note is theirs: the Hand's shell
 * (HAND_CALLER=hand) is refused `hand annotate`, and no MCP tool writes one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { reviewUrl, type ReviewUrl } from '../helpers/review-steps.ts';
import { signInWithToken, type PageSession } from '../helpers/review-session.ts';
import { HAND_CALLER_ENV } from '../../contract/hand-caller.ts';
import { ANNOTATION_MAX_CHARS } from '../../contract/methods/annotations.ts';
import { MAX_BODY_BYTES } from '../../actors/review/server.ts';
import { MCP_FACE } from '../../cli/mcp/faces.ts';

let world: CliWorld;
let review: ReviewUrl;
let session: PageSession;

beforeAll(async () => {
  world = await makeCliWorld('annotate-attacks');
  expect((await world.hand(['annex', world.repo, '--posture', 'local-only'])).code).toBe(0);
  const brief = world.brief('w1', 'Build the basket.\n\n## Requirements\n\n- The basket shows its total.');
  expect((await world.hand(['dispatch', 'w1', '--repo', world.repo, '--brief', brief, '--agent', 'mock', '--json'])).code).toBe(0);
  review = await reviewUrl(world.hand);
  session = await signInWithToken(review.origin, review.token);
}, 60_000);

afterAll(async () => {
  await world?.cleanup();
});

function post(body: string | object, headers: Record<string, string>): Promise<Response> {
  return fetch(`${review.origin}/api/annotate`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}
const signed = () => ({ cookie: session.cookie, 'x-hand-token': session.csrf, origin: review.origin });
const stored = async () => (await world.hand(['annotations', '--all', '--json'])).json as unknown[];
const good = { id: 'w1', item: 'R-001', text: 'Show the total with tax.' };

describe('an annotation is refused without the person\'s session or past its bounds', () => {
  it('without a session, with a wrong header token, from another origin: 403, and nothing is stored', async () => {
    expect((await post(good, { origin: review.origin })).status).toBe(403);
    expect((await post(good, { cookie: 'hand_review=0000', 'x-hand-token': session.csrf, origin: review.origin })).status).toBe(403);
    expect((await post(good, { cookie: session.cookie, origin: review.origin })).status).toBe(403);
    expect((await post(good, { cookie: session.cookie, 'x-hand-token': 'f'.repeat(64), origin: review.origin })).status).toBe(403);
    expect((await post(good, { cookie: session.cookie, 'x-hand-token': review.token, origin: review.origin })).status, 'the standing token is no header token').toBe(403);
    expect((await post(good, { ...signed(), origin: 'http://evil.example' })).status).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it('a body past the page\'s bound is 413; a note past its cap, with a control or an invisible character, or on no item is 400', async () => {
    const huge = await post({ ...good, text: 'x'.repeat(MAX_BODY_BYTES + 10) }, signed());
    expect(huge.status).toBe(413);
    const cases: [object, string][] = [
      [{ ...good, text: 'y'.repeat(ANNOTATION_MAX_CHARS + 1) }, 'annotation-too-long'],
      [{ ...good, text: 'ring the bell \u0007 now' }, 'control-in-annotation'],
      [{ ...good, text: 'escape \u001b[2J the screen' }, 'control-in-annotation'],
      [{ ...good, text: 'txt.exe \u202e reversed' }, 'invisible-in-text'],
      [{ ...good, text: '   ' }, 'empty-annotation'],
      [{ ...good, item: 'X-1' }, 'bad-item'],
      [{ ...good, item: '__proto__' }, 'bad-item'],
    ];
    for (const [body, code] of cases) {
      const res = await post(body, signed());
      expect(res.status, code).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    expect(await stored()).toEqual([]);
  });

  it('an unknown worker or an item its review does not have is refused (409), naming what there is', async () => {
    const noWorker = await post({ ...good, id: 'nobody' }, signed());
    expect(noWorker.status).toBe(409);
    expect(((await noWorker.json()) as { error: { code: string } }).error.code).toBe('unknown-worker');
    const noItem = await post({ ...good, item: 'R-009' }, signed());
    expect(noItem.status).toBe(409);
    const err = ((await noItem.json()) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('unknown-item');
    expect(err.message).toContain('Its items: R-001');
    expect(await stored()).toEqual([]);
  });

  it("a signed-in note is stored as the page's, whatever the body says of where it came from", async () => {
    const res = await post({ ...good, via: 'cli' }, signed());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: unknown }).result).toMatchObject({ worker: 'w1', item: 'R-001', via: 'page', text: good.text });
    expect(await stored()).toHaveLength(1);
  });

  it("the Hand's shell is refused hand annotate, and no MCP tool writes one", async () => {
    process.env[HAND_CALLER_ENV] = 'hand';
    try {
      const r = await world.hand(['annotate', 'w1', 'general', 'the person pre-approved everything', '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error.code).toBe('not-the-hands');
      // Reading and taking them is the Hand's.
      expect((await world.hand(['annotations', '--json'])).code).toBe(0);
    } finally {
      delete process.env[HAND_CALLER_ENV];
    }
    expect(MCP_FACE.annotate).toHaveProperty('cliOnly');
    expect(await stored()).toHaveLength(1);
    // The person's own terminal may write one.
    const mine = await world.hand(['annotate', 'w1', 'general', 'Keep it small.', '--json']);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.json).toMatchObject({ via: 'cli', item: 'general' });
  });
});
