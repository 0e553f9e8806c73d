/**
 * Rule: what faces.ts says about a method that is not an MCP tool is true (issue 38 item 9).
 * `afk.digest` and `notify.log` were claimed to be carried by `hand digest` and `hand notify log`,
 * and neither was: the away journal never reached a session-start digest and `hand notify log` did
 * not exist. Each `hand …` command a claim names answers `--help` with its own usage; each claim
 * that a digest carries a method is checked against the digest itself.
 */
import { describe, expect, it } from 'vitest';
import { MCP_FACE } from '../../cli/mcp/faces.ts';
import { runCli } from '../../cli/program.ts';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { buildDigest, formatDigest } from '../../cli/commands/digest.ts';

const world = useDaemonWorld();

async function help(words: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const stream = { write: (s: string) => ((out += s), true), isTTY: false } as never;
  const code = await runCli(['node', 'hand', ...words, '--help'], { stdout: stream, stderr: stream, env: {} });
  return { code, out };
}

/** `hand notify log` in a claim → ['notify', 'log'] (the words up to the first non-word). */
function commandsIn(claim: string): string[][] {
  return [...claim.matchAll(/\bhand ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)?)/g)].map((m) => m[1]!.split(' '));
}

describe("every face claim names a real command", () => {
  it.each(Object.entries(MCP_FACE).filter(([, f]) => 'cliOnly' in f).map(([m, f]) => [m, (f as { cliOnly: string }).cliOnly]))('%s: %s', async (_method, claim) => {
    for (const words of commandsIn(claim)) {
      const first = await help(words.slice(0, 1));
      expect(first.code, `hand ${words[0]} --help`).toBe(0);
      expect(first.out, `hand ${words[0]} is a command`).toContain(`Usage: hand ${words[0]}`);
      // A family (hand notify …): the second word must be one of its commands. A single command
      // (hand watch streams …): the rest of the claim is prose.
      if (/\nCommands:/.test(first.out) && words.length > 1) {
        const sub = await help(words);
        expect(sub.out, `hand ${words.join(' ')} is a command of hand ${words[0]}`).toContain(`Usage: hand ${words.join(' ')}`);
      }
    }
  });

  it('hand digest carries the away account the person has not been shown (afk.digest)', async () => {
    const w = await world('digest-away', { annexYolo: true });
    await w.call('afk.on', { note: 'lunch' });
    await w.dispatch('a1', 'MODE:ask');
    await w.call('wait', { id: 'a1', until: 'blocked', timeoutMs: 30_000 });
    const d = await buildDigest(w.paths, null);
    expect(d.awayAccount, JSON.stringify(d.broken)).not.toBeNull();
    expect(formatDigest(d)).toMatch(/WHILE YOU WERE AWAY \(since [^)]+\): /);
    expect(formatDigest(d)).toMatch(/- waits on you: a1 is blocked/);
  }, 60_000);
});
