/**
 * hand host add | list | check | remove (issue 28): the machines the fleet reaches over ssh.
 * Routing only: each subcommand is one daemon method; paths are made absolute here, where the
 * caller's working directory is known.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { HostFact, HostRow } from '../../contract/methods.ts';
import { hostReady } from '../../contract/methods/hosts.ts';
import { call } from '../client.ts';
import { setExitCode } from '../io.ts';
import { emit, table } from '../output.ts';
import type { CommandContext } from './context.ts';
import { answerAction } from './answer-action.ts';

function factLines(facts: HostFact[]): string {
  return facts.map((f) => `  ${f.what}${f.agent ? ` ${f.agent}` : ''}${f.for ? ` (${f.for} only)` : ''}: ${f.answer} — ${f.detail}${f.fix && f.answer !== 'yes' ? `\n    fix: ${f.fix}` : ''}`).join('\n');
}

function hostText(r: HostRow): HostRow & { where: string; checked: string } {
  const where = r.address ? `${r.user}@${r.address}:${r.port}` : 'this machine';
  const checked = r.keyChanged ? 'HOST KEY CHANGED (hand host check says how to verify and accept it)' : r.checkedAt ? `${hostReady(r.facts) ? 'ok' : 'problems'} at ${r.checkedAt}` : 'never';
  return { ...r, where, checked };
}

export function registerHostCommands(program: Command, ctx: CommandContext): void {
  const host = program.command('host').description('machines the fleet reaches over ssh (the default host is local)');
  host
    .command('add')
    .description('add a host: its key must be known (--known-hosts names a file holding it); nothing is accepted silently')
    .argument('<name>', 'a short name (lower-case letters, digits, dashes)')
    .argument('<destination>', 'user@address')
    .option('--port <n>', 'ssh port (default 22)')
    .option('--identity <file>', 'private key to log in with')
    .option('--known-hosts <file>', 'a known_hosts file holding this host\'s key (e.g. ~/.ssh/known_hosts after you compared its fingerprint)')
    .action(answerAction(
      ctx,
      (paths, name: string, destination: string, o: { port?: string; identity?: string; knownHosts?: string }) => call(paths, 'host.add', {
        name,
        destination,
        ...(o.port !== undefined && { port: Number(o.port) }),
        ...(o.identity && { identity: resolve(o.identity) }),
        ...(o.knownHosts && { knownHosts: resolve(o.knownHosts) }),
      }),
      (r) => `added ${r.name} (${r.user}@${r.address}:${r.port}); check it with hand host check ${r.name}`,
    ));
  host
    .command('list')
    .description('hosts, local first, with the result of their last check')
    .action(answerAction(ctx, (paths) => call(paths, 'host.list'), (r) => table(r.map(hostText), ['name', 'where', 'stateDir', 'checked'])));
  host
    .command('check')
    .description('ssh (batch mode, known host key), git, tmux, the agent and the state directory (0700): yes / no / could-not-tell, each with its fix')
    .argument('<name>', 'host name (hand host list)')
    .action(async (name: string, _o, cmd: Command) => {
      const r = await call(ctx.paths(cmd), 'host.check', { name });
      // A host that is not ready is a failed check for a script, as doctor's problems are.
      if (!r.ok) setExitCode(1);
      emit(ctx.json(cmd), r, () => `${r.name}: ${r.ok ? 'ready' : 'not ready'}\n${factLines(r.facts)}`);
    });
  host
    .command('trust')
    .description("accept a host's new key after you verified it: its old key lines in the daemon's known_hosts are replaced by the ones --known-hosts holds for it")
    .argument('<name>', 'host name (hand host list)')
    .requiredOption('--known-hosts <file>', 'a known_hosts file holding the new key (e.g. ~/.ssh/known_hosts after you compared its fingerprint with the host\'s)')
    .action(answerAction(
      ctx,
      (paths, name: string, o: { knownHosts: string }) => call(paths, 'host.trust', { name, knownHosts: resolve(o.knownHosts) }),
      (r) => `${r.name}: ${r.keys} key line(s) accepted${r.replaced ? `, ${r.replaced} old one(s) replaced` : ''}; its workers read their screens again (hand host check ${r.name} checks it)`,
    ));
  host
    .command('remove')
    .description('remove a host (its ssh connection is closed; nothing on the far side is touched)')
    .argument('<name>', 'host name')
    .action(answerAction(ctx, (paths, name: string) => call(paths, 'host.remove', { name }), (r) => `removed ${r.name}`));
}
