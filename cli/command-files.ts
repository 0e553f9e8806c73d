/**
 * Which file registers which top-level command, in the order of `hand --help`. The program loads
 * only the file of the command it runs: a start of `hand status` or `hand --version` used to load
 * every command's module graph (issue 26: `hand --version` took 1.9× Node's own start). Help, a
 * bare `hand`, and a name not listed here load every file, so help lists all and an unknown
 * command is refused by commander as before. `tests/cli/each-command-loads-only-its-own-file.test.ts`
 * fails when a file registers a name this table does not give it.
 */
import type { Command } from 'commander';
import type { CommandContext } from './commands/context.ts';

export type Registrar = (program: Command, ctx: CommandContext) => void;

interface CommandFile {
  /** The top-level commands the file registers. */
  names: readonly string[];
  load(): Promise<Registrar>;
}

export const COMMAND_FILES: readonly CommandFile[] = [
  { names: ['daemon'], load: async () => (await import('./commands/daemon.ts')).registerDaemon },
  { names: ['logs'], load: async () => (await import('./commands/logs.ts')).registerLogs },
  { names: ['annex'], load: async () => (await import('./commands/annex.ts')).registerAnnex },
  { names: ['project'], load: async () => (await import('./commands/project-set.ts')).registerProjectSet },
  { names: ['projects'], load: async () => (await import('./commands/projects.ts')).registerProjects },
  { names: ['dispatch'], load: async () => (await import('./commands/dispatch.ts')).registerDispatch },
  { names: ['status'], load: async () => (await import('./commands/status.ts')).registerStatus },
  { names: ['wait'], load: async () => (await import('./commands/wait.ts')).registerWait },
  { names: ['read'], load: async () => (await import('./commands/read.ts')).registerRead },
  { names: ['report'], load: async () => (await import('./commands/report.ts')).registerReport },
  { names: ['send'], load: async () => (await import('./commands/send.ts')).registerSend },
  { names: ['keys'], load: async () => (await import('./commands/keys.ts')).registerKeys },
  { names: ['answer'], load: async () => (await import('./commands/answer.ts')).registerAnswer },
  { names: ['stop'], load: async () => (await import('./commands/stop.ts')).registerStop },
  { names: ['relaunch'], load: async () => (await import('./commands/relaunch.ts')).registerRelaunch },
  { names: ['resume', 'cost'], load: async () => {
    const m = await import('./commands/resume.ts');
    return (program, ctx) => {
      m.registerResume(program, ctx);
      m.registerCost(program, ctx);
    };
  } },
  { names: ['discard'], load: async () => (await import('./commands/discard.ts')).registerDiscard },
  { names: ['close'], load: async () => (await import('./commands/close.ts')).registerClose },
  { names: ['land'], load: async () => (await import('./commands/land.ts')).registerLand },
  { names: ['approve'], load: async () => (await import('./commands/approve.ts')).registerApprove },
  { names: ['reject'], load: async () => (await import('./commands/reject.ts')).registerReject },
  { names: ['landings'], load: async () => (await import('./commands/landings.ts')).registerLandings },
  { names: ['review'], load: async () => (await import('./commands/review-command.ts')).registerReview },
  { names: ['diagram'], load: async () => (await import('./commands/diagram-command.ts')).registerDiagram },
  { names: ['screen'], load: async () => (await import('./commands/screen.ts')).registerScreen },
  { names: ['hook'], load: async () => (await import('./commands/hook-command.ts')).registerHook },
  { names: ['mock-agent'], load: async () => (await import('./commands/mock-agent.ts')).registerMockAgent },
  { names: ['doctor'], load: async () => (await import('./commands/doctor-command.ts')).registerDoctor },
  { names: ['update'], load: async () => (await import('./commands/update.ts')).registerUpdate },
  { names: ['demo'], load: async () => (await import('./commands/demo.ts')).registerDemo },
  // One stream for the whole fleet: the Hand's wake (hand watch --needs-you).
  { names: ['watch'], load: async () => (await import('./commands/watch.ts')).registerWatch },
  // The Hand's workspace and its views.
  { names: ['init', 'digest', 'survey', 'audience', 'index', 'memory', 'mcp'], load: async () => (await import('./commands/hand-commands.ts')).registerHandCommands },
  // Backlog, decisions, away mode, journal, notifications, usage.
  { names: ['backlog', 'decisions', 'decide', 'afk', 'journal', 'notify', 'usage'], load: async () => (await import('./commands/work.ts')).registerWorkCommands },
  // Other machines over SSH.
  { names: ['host'], load: async () => (await import('./commands/host.ts')).registerHostCommands },
  // The person's notes on a worker's review, and the Hand taking them (issue 40).
  { names: ['annotate', 'annotations'], load: async () => (await import('./commands/annotations.ts')).registerAnnotations },
  // A worker's browser checks, run inside its sandbox (issue 40: the witness skill).
  { names: ['browser-check'], load: async () => (await import('./commands/browser-check.ts')).registerBrowserCheck },
];

/** Global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set(['--home']);

/** The command word of `args` (argv without node and the script), or null when there is none. */
export function commandWord(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return a;
  }
  return null;
}

/** The registrars a run needs: the command's own file; none for a bare --version; all otherwise. */
export async function registrarsFor(args: readonly string[]): Promise<Registrar[]> {
  const word = commandWord(args);
  if (word === null && (args.includes('--version') || args.includes('-V')) && !args.includes('--help') && !args.includes('-h')) return [];
  const own = word === null ? undefined : COMMAND_FILES.find((f) => f.names.includes(word));
  return Promise.all((own ? [own] : COMMAND_FILES).map((f) => f.load()));
}
