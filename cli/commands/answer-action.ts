/**
 * The action of a command that is one question and nothing besides: asked with the command's
 * state directory and its arguments, its answer printed as JSON with --json, else in `say`'s
 * words. A command that does more (an exit code, a second call, progress) spells its action out.
 */
import type { Command } from 'commander';
import type { HomePaths } from '../../contract/home.ts';
import { emit } from '../output.ts';
import type { CommandContext } from './context.ts';

/**
 * `ask` takes what commander hands the action before the command itself: the positional
 * arguments, then the options.
 */
export function answerAction<A extends unknown[], R>(ctx: CommandContext, ask: (paths: HomePaths, ...args: A) => Promise<R>, say: (r: R) => string): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const cmd = args.at(-1) as Command;
    const r = await ask(ctx.paths(cmd), ...(args.slice(0, -1) as A));
    emit(ctx.json(cmd), r, () => say(r));
  };
}
