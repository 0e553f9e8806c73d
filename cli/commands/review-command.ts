/**
 * `hand review [id] [--open] [--sign-out-all]`: the review page's URL, or with a worker's id the
 * link that opens that worker's page. The browser opener (./review.ts, which loads execa) is
 * imported only with --open.
 */
import { type Command } from 'commander';
import { pathToFileURL } from 'node:url';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { cliEnv } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerReview(program: Command, ctx: CommandContext): void {
  program
    .command('review [id]')
    .description("the review page: the fleet, briefs, screens, diffs and gates in your browser (prints its URL; with a worker's id, the link to that worker's page)")
    .option('--open', 'open the page in your browser (xdg-open / open, or HAND_BROWSER) through a private one-time sign-in file')
    .option('--public-url <url>', "the address your own tunnel (tailnet, ssh -R, reverse proxy) reaches this page by, stored: notifications' links use it and the page answers its Host; off forgets it")
    .option('--sign-out-all', 'end every signed-in page session and void unused sign-in files (then sign in again)')
    .action(async (id: string | undefined, o: { open?: boolean; signOutAll?: boolean; publicUrl?: string }, cmd: Command) => {
      const params = { ...(id ? { id } : {}), ...(o.open ? { login: true } : {}), ...(o.signOutAll ? { signOutAll: true } : {}), ...(o.publicUrl !== undefined ? { publicUrl: o.publicUrl } : {}) };
      const { loginFile, ...r } = await call(ctx.paths(cmd), 'review', params);
      // The browser gets the path of a 0600 file that posts a one-time code, never the token or
      // the code: another local account can read a process's argv (/proc/<pid>/cmdline).
      if (o.open && loginFile) await (await import('./review.ts')).openInBrowser(pathToFileURL(loginFile).href, cliEnv());
      emit(ctx.json(cmd), r, () => {
        const out: string[] = [];
        if (r.signedOut) out.push(`signed out everywhere: ${r.signedOut.sessions} session(s) ended, ${r.signedOut.codes} unused sign-in file(s) voided`);
        out.push(r.url, '(the link carries this state directory\'s token: keep it to yourself; opening it starts a session that ends after 12 h unused, 24 h at most, or at hand review --sign-out-all)');
        // After the URL: the first line stays the link to open, as scripts read it.
        if (r.publicUrl) out.push(`public URL: ${r.publicUrl} (notifications' answers and links use it; your tunnel must reach 127.0.0.1:${r.port}, so fix the port with HAND_REVIEW_PORT)`);
        else if (o.publicUrl !== undefined) out.push('public URL: none (notifications carry no answers or links)');
        return out.join('\n');
      });
    });
}
