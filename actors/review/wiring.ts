/**
 * How the daemon hosts the review page: started beside the socket server, its URL handed out by
 * the `review` request (`hand review`). A page that cannot start (a refused bind address, a
 * taken HAND_REVIEW_PORT) never stops the daemon; `hand review` then says why.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { startReviewServer, type ReviewDeps, type ReviewServer } from './server.ts';

export interface ReviewHosting {
  handlers: Pick<MethodTable, 'review'>;
  close(): Promise<void>;
}

export async function hostReview(deps: ReviewDeps): Promise<ReviewHosting> {
  let server: ReviewServer | null = null;
  let problem = '';
  try {
    server = await startReviewServer(deps);
    deps.log?.({ url: `http://${server.host}:${server.port}/` }, 'review page listening');
  } catch (err) {
    problem = (err as Error).message;
    deps.log?.({ err: problem }, 'review page not started');
  }
  return {
    handlers: {
      async review(params) {
        if (!server) throw new RefusedError('review-unavailable', `the review page did not start: ${problem}`, {});
        // Signed out first, so `--sign-out-all --open` leaves exactly the new sign-in alive.
        const signedOut = params.signOutAll === true ? { signedOut: server.signOutAll() } : {};
        // For a browser the CLI starts: a private file holding a one-time code, so neither the
        // standing token nor the code is in any argv (another account reads /proc/<pid>/cmdline).
        const login = params.login === true ? { loginFile: server.loginFile() } : {};
        return { url: server.url, host: server.host, port: server.port, ...signedOut, ...login };
      },
    },
    close: async () => {
      await server?.close();
    },
  };
}
