/**
 * `hand annotate <id> <item> <text…>`: the person's note on an item of a worker's review (what
 * the review page's annotation forms post). `hand annotations [id] [--since] [--all]`: the notes
 * the Hand has not taken yet; `hand annotations take <n…> --as revised-brief|steer|answered`: the
 * Hand acted on them. Routing only: the daemon checks and stores (annotation-handlers.ts).
 */
import { Option, type Command } from 'commander';
import { call } from '../client.ts';
import { emit } from '../output.ts';
import { parseSince } from '../since.ts';
import type { AnnotationRow } from '../../contract/methods/annotations.ts';
import { TAKEN_AS, type TakenAs } from '../../contract/vocabulary.ts';
import type { CommandContext } from './context.ts';

function rowText(r: AnnotationRow): string {
  return [`#${r.n} · ${r.worker} · ${r.item}${r.itemText ? ` (${r.itemText})` : ''} · on its ${r.on} · ${r.at}${r.taken ? ` · taken as ${r.taken.as}` : ''}`, ...r.text.split('\n').map((l) => `  ${l}`), `  next: ${r.next}`].join('\n');
}

export function registerAnnotations(program: Command, ctx: CommandContext): void {
  program
    .command('annotate')
    .description("write your note on an item of a worker's review (R- requirement, F- file, C- browser check, Q- question: the ids its review page shows) or on the worker as a whole (general); the Hand is woken with it")
    .argument('<id>', 'worker id')
    .argument('<item>', 'the item id (R-001, F-002, …) or general')
    .argument('<text...>', 'your note')
    .action(async (id: string, item: string, words: string[], _o: unknown, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'annotate', { id, item, text: words.join(' ') });
      emit(ctx.json(cmd), r, () => `#${r.n} written on ${r.worker} ${r.item}: the Hand is told (hand watch --needs-you) and takes it as ${r.on === 'brief' ? 'a revised brief' : 'a steer'}`);
    });

  const annotations = program
    .command('annotations')
    .description("the person's notes on workers' review pages that the Hand has not taken yet (with --all, taken ones too)")
    .argument('[id]', "one worker's")
    .option('--since <when>', 'written since: a duration back (2h) or an ISO time')
    .option('--all', 'taken ones too')
    .action(async (id: string | undefined, o: { since?: string; all?: boolean }, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'annotations', { ...(id ? { id } : {}), ...(o.since ? { sinceMs: parseSince(o.since) } : {}), ...(o.all ? { all: true } : {}) });
      emit(ctx.json(cmd), r, () => (r.length ? r.map(rowText).join('\n') : o.all ? 'no annotations' : 'no new annotations'));
    });
  annotations
    .command('take')
    .description('mark annotations taken once acted on: as a revised brief, a steer, or answered in chat')
    .argument('<n...>', "the annotations' numbers")
    .addOption(new Option('--as <how>', 'what was done with them').choices([...TAKEN_AS]).makeOptionMandatory())
    .option('--note <text>', 'what was done, in a line')
    .action(async (ns: string[], o: { as: TakenAs; note?: string }, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'annotations.take', { n: ns.map((v) => (/^\d+$/.test(v) ? Number(v) : v)) as number[], as: o.as, ...(o.note ? { note: o.note } : {}) });
      emit(ctx.json(cmd), r, () => r.map((a) => `#${a.n} taken as ${a.taken?.as ?? o.as}`).join('\n'));
    });
}
