/**
 * How the daemon hosts the review page: started beside the socket server, its URL handed out by
 * the `review` request (`hand review`). A page that cannot start (a refused bind address, a
 * taken HAND_REVIEW_PORT) never stops the daemon; `hand review` then says why.
 */
import { RefusedError } from '../../contract/errors.ts';
import { unknownWorker } from '../../contract/refusals.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { startReviewServer, type ReviewDeps, type ReviewServer } from './server.ts';
import { parsePublicUrl } from '../phone/public-url.ts';

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
        if (params.publicUrl !== undefined) {
          if (!deps.phone) throw new RefusedError('public-url-unavailable', 'this daemon has no phone links to set a public URL for', {});
          // Checked before anything is stored: a bad value leaves the old one in place.
          const pub = params.publicUrl.trim().toLowerCase() === 'off' ? null : parsePublicUrl(params.publicUrl);
          deps.phone.links.setPublicUrl(pub);
          server.setPublicUrl(pub);
          deps.log?.({ publicHost: pub?.host ?? null }, 'review public URL set');
        }
        // A worker's link is for a worker the page can show: a wrong id is refused here, plainly,
        // not handed out as a link that opens a "no worker named" page.
        const worker = params.id;
        if (worker !== undefined && !deps.fleet.view(worker)) throw unknownWorker(worker);
        // Signed out first, so `--sign-out-all --open` leaves exactly the new sign-in alive.
        const signedOut = params.signOutAll === true ? { signedOut: server.signOutAll() } : {};
        // For a browser the CLI starts: a private file holding a one-time code, so neither the
        // standing token nor the code is in any argv (another account reads /proc/<pid>/cmdline).
        const login = params.login === true ? { loginFile: server.loginFile(worker) } : {};
        const url = worker === undefined ? server.url : server.workerUrl(worker);
        const publicUrl = deps.phone?.links.publicUrl()?.base ?? null;
        return { url, host: server.host, port: server.port, publicUrl, ...(worker !== undefined ? { worker } : {}), ...signedOut, ...login };
      },
    },
    close: async () => {
      await server?.close();
    },
  };
}
