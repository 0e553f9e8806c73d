/**
 * The Hand's commands, registered on the main program: init, digest, survey, audience,
 * index add|check, memory check, mcp. Routing only; the work lives in io/workspace,
 * cli/commands/digest.ts, the daemon's fleet-picture handlers and mcp/.
 */
import { Command } from 'commander';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../../io/root.ts';
import { UsageError } from '../../contract/errors.ts';
import { homePaths, resolveHome, type HomePaths } from '../../contract/home.ts';
import { ensureHome } from '../../io/fs/ensure-home.ts';
import { emit } from '../output.ts';
import { ops } from '../hand-ops.ts';
import { findWorkspace, isWorkspace, workspacePaths, defaultWorkspaceDir } from '../../io/workspace/layout.ts';
import { formatSurvey, formatAudience } from './picture-text.ts';
import { parseSince, sessionStart } from '../since.ts';
import { cliOut } from '../io.ts';
import type { CommandContext } from './context.ts';
import { answerAction } from './answer-action.ts';


const HAND_BIN = join(KINGSHAND_ROOT, 'bin', 'hand.js');

function requireWorkspace(named: string | undefined): ReturnType<typeof workspacePaths> {
  const dir = findWorkspace(named);
  if (!dir || !existsSync(dir) || !isWorkspace(dir)) {
    throw new UsageError('no-workspace', `no Hand workspace here${named ? ` (${named})` : ''}. Run this inside one, pass --workspace <dir>, or make one with hand init.`, { workspace: named ?? null });
  }
  return workspacePaths(dir);
}

export function registerHandCommands(program: Command, ctx: CommandContext): void {
  program
    .command('init')
    .description("make (or upgrade) the Hand's workspace: CLAUDE.md, skills, settings, MCP server, your instructions and memory")
    .argument('[dir]', 'where (default ~/kingshand)')
    .option('--force-dir', 'use a directory that already holds other things')
    .action(async (dir: string | undefined, o: { forceDir?: boolean }, cmd: Command) => {
      const { initWorkspace } = await import('../../io/workspace/init.ts');
      const opts = cmd.optsWithGlobals() as { home?: string };
      const pkg = JSON.parse(readFileSync(join(KINGSHAND_ROOT, 'package.json'), 'utf8')) as { version: string };
      const stateDir = resolveHome(opts.home);
      const r = initWorkspace({
        dir: dir ?? defaultWorkspaceDir(), forceDir: o.forceDir, home: opts.home ? resolveHome(opts.home) : null, stateDir,
        node: process.execPath, handBin: HAND_BIN, version: pkg.version,
      });
      // The state directory names this workspace: dispatch reads its data/ (index, standing files).
      const { recordWorkspace } = await import('../../io/workspace/recorded.ts');
      const recorded = recordWorkspace(ensureHome(stateDir).home, r.workspace);
      emit(ctx.json(cmd), { ...r, recorded }, () => [
        `${r.upgraded ? 'upgraded' : 'made'} the Hand's workspace ${r.workspace}`,
        ...r.files.map((f) => `  ${f.action.padEnd(9)} ${f.path}${f.owner === 'person' ? ' (yours)' : ''}`),
        `  recorded  ${recorded} (dispatch reads ${r.workspace}/data)`,
        `next: cd ${r.workspace} && claude`,
      ].join('\n'));
    });

  program
    .command('digest')
    .description('what a Hand session is told as it starts: projects, live workers, what waits on you, memory budget, index drift')
    .option('--workspace <dir>', 'the Hand workspace (default: this directory, else ~/kingshand)')
    .option('--hook', 'print it as SessionStart hook output and record the session start')
    .action(async (o: { workspace?: string; hook?: boolean }, cmd: Command) => {
      const { buildDigest, formatDigest, hookOutput, recordSessionStart } = await import('./digest.ts');
      const now = Date.now();
      // Never fails a session start: even an unusable state directory is one BROKEN line.
      let paths: HomePaths;
      const broken: string[] = [];
      try {
        paths = ctx.paths(cmd);
      } catch (err) {
        paths = homePaths(resolveHome((cmd.optsWithGlobals() as { home?: string }).home));
        broken.push(`state directory: ${String((err as Error).message).replace(/\s+/g, ' ').slice(0, 200)}`);
      }
      const d = await buildDigest(paths, findWorkspace(o.workspace), now, broken);
      if (o.hook) {
        try {
          recordSessionStart(paths, now);
        } catch (err) {
          d.broken.push(`session: could not record its start: ${String(err).slice(0, 160)}`);
        }
        cliOut().write(`${hookOutput(formatDigest(d))}\n`);
        return;
      }
      emit(ctx.json(cmd), d, () => formatDigest(d));
    });

  program
    .command('survey')
    .description('the whole picture, read-only: what needs you, recently landed, underway, next')
    .action(answerAction(ctx, ops.survey, formatSurvey));

  program
    .command('audience')
    .description('what happened since a time (default: the start of this Hand session): per worker, newest last')
    .option('--since <time>', 'ISO time, epoch ms, or a duration back from now (2h)')
    .action(answerAction(ctx, (paths, o: { since?: string }) => ops.audience(paths, { since: o.since ? parseSince(o.since) : sessionStart(paths).since }), formatAudience));

  const index = program.command('index').description("the workspace's data index (data/index.md) and each project's (data/index/<project>.md)");
  index
    .command('add')
    .description('list a file under data/ in the index (re-adding rewrites its line, keeps its date)')
    .argument('<file>', 'a file under data/')
    .requiredOption('--summary <text>', 'what the file holds, at most 160 characters')
    .option('--project <name>', "the project's own index (data/index/<name>.md), which its briefs' index rule reads beside data/index.md")
    .option('--workspace <dir>', 'the Hand workspace')
    .action(async (file: string, o: { summary: string; project?: string; workspace?: string }, cmd: Command) => {
      const { addIndexEntry } = await import('../../io/workspace/data-index.ts');
      const r = addIndexEntry(requireWorkspace(o.workspace), file, o.summary, undefined, o.project);
      emit(ctx.json(cmd), r, () => `${r.updated ? 'updated' : 'indexed'} ${r.path} in ${r.index}`);
    });
  index
    .command('remove')
    .description("drop one file's line from the index (the file itself is not touched)")
    .argument('<file>', 'the data/ path the index lists')
    .option('--project <name>', "from the project's own index (data/index/<name>.md)")
    .option('--workspace <dir>', 'the Hand workspace')
    .action(async (file: string, o: { project?: string; workspace?: string }, cmd: Command) => {
      const { removeIndexEntry } = await import('../../io/workspace/data-index.ts');
      const r = removeIndexEntry(requireWorkspace(o.workspace), file, o.project);
      emit(ctx.json(cmd), r, () => `removed ${r.path} from ${r.index}`);
    });
  index
    .command('check')
    .description('index drift across every index: files under data/ listed nowhere (UNINDEXED), entries whose file is gone (STALE)')
    .option('--prune', 'drop the STALE lines from the index that lists them')
    .option('--workspace <dir>', 'the Hand workspace')
    .action(async (o: { prune?: boolean; workspace?: string }, cmd: Command) => {
      const { indexDrift } = await import('../../io/workspace/data-index.ts');
      const r = indexDrift(requireWorkspace(o.workspace), { prune: o.prune === true });
      emit(ctx.json(cmd), r, () => [
        `${r.indexed} files indexed (${r.indexes.join(', ') || 'no index yet'})`,
        ...(r.unindexed.length ? [`UNINDEXED ${r.unindexed.length}: ${r.unindexed.join(', ')} (hand index add <file> --summary …)`] : []),
        ...(r.staleIn.length ? [`STALE ${r.staleIn.length}: ${r.staleIn.map((x) => `${x.path} in ${x.index}`).join(', ')} (hand index check --prune drops them)`] : []),
        ...(r.pruned?.length ? [`PRUNED ${r.pruned.length}: ${r.pruned.map((x) => `${x.path} from ${x.index}`).join(', ')}`] : []),
      ].join('\n'));
    });

  program
    .command('memory')
    .description("the Hand's memory files")
    .command('check')
    .description('estimated tokens of memory/king.md and memory/learnings.md against the budget (memory/budget)')
    .option('--workspace <dir>', 'the Hand workspace')
    .action(async (o: { workspace?: string }, cmd: Command) => {
      const { memoryReport } = await import('../../io/workspace/memory.ts');
      const r = memoryReport(requireWorkspace(o.workspace));
      emit(ctx.json(cmd), r, () => [
        ...r.files.map((f) => `  ${f.path}: ${f.present ? `${f.tokens} tokens` : 'absent'}`),
        r.over ? `OVER: ${r.total} estimated tokens against a budget of ${r.budget}, over by ${r.overBy}` : `${r.total} of ${r.budget} estimated tokens`,
      ].join('\n'));
    });

  program
    .command('mcp')
    .description("serve the fleet tools to Claude Code over stdio (the Hand's MCP server; registered by hand init)")
    .option('--workspace <dir>', 'the Hand workspace (for digest)')
    .action(async (o: { workspace?: string }, cmd: Command) => {
      const { serveMcp } = await import('../mcp/server.ts');
      await serveMcp({ paths: ctx.paths(cmd), workspace: o.workspace ?? null });
    });
}
