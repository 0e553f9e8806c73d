/**
 * `hand browser-check <C-id> --out <dir> --url <address> --expect <text>`: the tool a worker runs,
 * inside its sandbox, for one check of its brief's `## Browser checks` (issue 40, the witness
 * skill). It opens the address in a real headless Chromium, reads the page (or one element), and
 * records what it observed in `<out>/checks.json`: verified when every expected text is there,
 * failed when not, not checked (with why) when there is no browser or the worker says it could not
 * run it (`--not-checked <why>`). A check only reads unless its line in the brief says
 * `[interact]`; then `--click` and `--fill` run first, in the order given.
 *
 * It needs no daemon and never touches kingshand's state directory (a worker has none): the brief
 * and the out directory are the worker's own places. Exit 0 verified, 1 failed or not checked,
 * 2 bad usage.
 */
import { Command, Option } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import { browserChecksOf } from '../../io/brief/brief-items.ts';
import { outcomeOf, writeCheck, type RecordedCheck } from '../../io/browser/checks-record.ts';
import { runBrowserCheck, type CheckAction } from '../../io/browser/run-check.ts';
import { parseDuration } from '../durations.ts';
import { emit } from '../output.ts';
import { cliEnv, setExitCode } from '../io.ts';
import type { CommandContext } from './context.ts';

interface Flags {
  out: string;
  url?: string;
  expect: string[];
  expectNot: string[];
  selector?: string;
  notChecked?: string;
  brief?: string;
  timeout: string;
}

const collect = (v: string, prev: string[]) => [...prev, v];

/** The brief beside the out directory (`<state>/workers/<id>/brief.md`), or the one named. */
function briefOf(out: string, given: string | undefined): string {
  const candidates = given ? [resolve(given)] : [join(dirname(out), 'brief.md'), join(out, 'brief.md')];
  const found = candidates.find((p) => existsSync(p) && statSync(p).isFile());
  if (!found) throw new UsageError('no-brief', `no brief at ${candidates.join(' or ')}: run the command your brief's "Running the browser checks" section gives, or pass --brief <path>.`, { out });
  if (statSync(found).size > 4 << 20) throw new UsageError('brief-too-large', `${found} is larger than a brief: pass your own brief with --brief.`, {});
  return readFileSync(found, 'utf8');
}

export function registerBrowserCheck(program: Command, ctx: CommandContext): void {
  const actions: CheckAction[] = [];
  program
    .command('browser-check')
    .description("a worker's browser check (its brief's ## Browser checks): open the page in a real headless Chromium, read it, record what was seen in <out>/checks.json")
    .argument('<check>', 'the check id from the brief, e.g. C-001')
    .requiredOption('--out <dir>', 'your report directory (the one your brief names)')
    .option('--url <address>', 'the page to open (http or https)')
    .option('--expect <text>', 'text the page (or the element) must show; repeat for more', collect, [])
    .option('--expect-not <text>', 'text it must not show; repeat for more', collect, [])
    .option('--selector <css>', 'read this element instead of the whole page')
    .addOption(new Option('--click <css>', 'click this first (only for a check marked [interact])').argParser((v: string, prev: unknown) => (actions.push({ kind: 'click', selector: v }), prev)))
    .addOption(new Option('--fill <css=text>', 'type into this first (only for a check marked [interact])').argParser((v: string, prev: unknown) => {
      const at = v.indexOf('=');
      if (at <= 0) throw new UsageError('bad-fill', `--fill takes <css>=<text>, e.g. --fill '#name=Ada'; got ${JSON.stringify(v)}.`, {});
      actions.push({ kind: 'fill', selector: v.slice(0, at), value: v.slice(at + 1) });
      return prev;
    }))
    .option('--not-checked <why>', 'record that this check could not be run, and why')
    .option('--brief <path>', 'your brief (default: the brief.md beside --out)')
    .option('--timeout <duration>', 'how long the page may take', '30s')
    .action(async (id: string, o: Flags, cmd: Command) => {
      const out = resolve(o.out);
      if (!existsSync(out) || !statSync(out).isDirectory()) throw new UsageError('bad-out', `--out ${o.out} is not a directory: give your report directory.`, { out });
      const checks = browserChecksOf(briefOf(out, o.brief));
      const check = checks.find((c) => c.id === id);
      if (!check) throw new UsageError('unknown-check', `${id} is not a check of your brief (its ## Browser checks: ${checks.map((c) => c.id).join(', ') || 'none'}).`, { id });
      const at = new Date().toISOString();
      let entry: RecordedCheck;
      if (o.notChecked !== undefined) {
        if (!o.notChecked.trim()) throw new UsageError('bad-not-checked', '--not-checked needs the reason the check could not be run.', {});
        entry = { result: 'not checked', at, reason: o.notChecked.slice(0, 500) };
      } else {
        if (!o.url || !/^https?:\/\//i.test(o.url)) throw new UsageError('bad-url', `--url must be an http or https address (got ${JSON.stringify(o.url ?? '')}).`, { url: o.url });
        if (o.expect.length === 0) throw new UsageError('no-expectation', `a check observes something: give --expect <text> (what ${id} says the page shows).`, { id });
        if (actions.length && !check.interact) {
          throw new UsageError('check-is-read-only', `${id} only reads: its line in the brief does not say [interact], so --click and --fill are refused. Check what the page shows as it loads, or record --not-checked "<why>" and say in your report what you would need.`, { id });
        }
        const run = await runBrowserCheck({ url: o.url, selector: o.selector ?? null, expect: o.expect, expectNot: o.expectNot, actions, timeoutMs: parseDuration(o.timeout, '--timeout') }, cliEnv());
        entry = 'notChecked' in run ? { result: 'not checked', at, reason: run.notChecked } : { result: outcomeOf(run.observed).result, at, observed: run.observed };
      }
      const path = writeCheck(out, id, entry);
      if (entry.result !== 'verified') setExitCode(1);
      const why = entry.observed ? outcomeOf(entry.observed).why : (entry.reason ?? '');
      emit(ctx.json(cmd), { id, ...entry, recorded: path }, () => `${id} ${entry.result}: ${why}${entry.observed ? ` (${entry.observed.finalUrl}${entry.observed.status !== null ? `, ${entry.observed.status}` : ''})` : ''} · recorded in ${basename(dirname(path))}/${basename(path)}`);
    });
}
