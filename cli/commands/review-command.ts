/**
 * `hand review [--open]`: the review page's URL. The browser opener (./review.ts, which loads
 * execa) is imported only with --open.
 */
import { type Command } from 'commander';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { cliEnv } from '../io.ts';
import type { CommandContext } from './context.ts';

export function registerReview(program: Command, ctx: CommandContext): void {
  program
    .command('review')
    .description('the review page: the fleet, briefs, screens, diffs and gates in your browser (prints its URL)')
    .option('--open', 'open the page in your browser (xdg-open / open)')
    .action(async (o: { open?: boolean }, cmd: Command) => {
      const { loginUrl, ...r } = await call(ctx.paths(cmd), 'review', o.open ? { login: true } : {});
      // The browser gets a one-time login code, never the token: another local account can read
      // a process's argv (/proc/<pid>/cmdline).
      if (o.open && loginUrl) await (await import('./review.ts')).openInBrowser(loginUrl, cliEnv());
      emit(ctx.json(cmd), r, () => `${r.url}\n(the link carries this state directory's token: keep it to yourself)`);
    });
}
