/**
 * `hand doctor`: checks what kingshand needs and prints, for each problem, the exact command
 * that fixes it. It installs nothing and writes nothing.
 */
import { probeSandbox } from '../../io/sandbox/availability.ts';
import { execFile } from 'node:child_process';
import { existsSync, statSync, statfsSync, accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { claudeBinary } from '../../io/agent/launch.ts';
import { codexBinary, codexVersionOf } from '../../io/agent/codex/launch.ts';
import { FIX_CODEX } from '../../io/agent/profiles/codex.ts';
import { codexCorpusStanding } from '../../io/screen/profiles/codex.ts';
import { inspectDatabase } from '../../persistence/db-health.ts';
import { notificationCheck } from './doctor-notify.ts';
import { findExecutable } from '../../io/git/landing-pr.ts';
import { GH_INSTALL, NO_MISTAKES_INSTALL, ghLoggedIn } from '../../io/git/posture-checks.ts';
import { compareVersions, newestCorpusVersion, parseClaudeVersion } from '../../io/screen/profiles/claude-versions.ts';
import { cliEnv } from '../io.ts';
import { geminiCheck } from '../../io/agent/gemini/standing.ts';
import { opencodeCheck } from '../../io/agent/opencode/standing.ts';
import { qwenCheck } from '../../io/agent/qwen/standing.ts';
import { FIX_CLAUDE, FIX_GIT, FIX_TMUX } from '../../io/agent/setup-facts.ts';
import { CALIBRATE_COMMAND, calibrationStandings } from '../../io/agent/calibration-standing.ts';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
  /** A missing optional part does not make the whole check fail. */
  optional?: boolean;
}

const require = createRequire(import.meta.url);

function version(file: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (err, stdout) => resolve(err ? null : stdout.trim().split('\n')[0]!));
  });
}


/**
 * The screen reader was checked against captures of CORPUS_VERSIONS; a newer Claude Code may
 * draw screens it has not seen. A warning (optional check), never a failure: the structural
 * reader and the could-not-tell bound still apply.
 */
export function claudeNewerThanCorpus(versionLine: string | null): Check | null {
  const installed = versionLine === null ? null : parseClaudeVersion(versionLine);
  if (installed === null) return null;
  const newest = newestCorpusVersion();
  if (compareVersions(installed, newest) <= 0) return null;
  return {
    name: 'claude screens', ok: false, optional: true,
    detail: `Claude Code ${installed} is newer than the newest version in the screen corpus (${newest}); its screens may read "could not tell" more often`,
    fix: `npm run capture -- --claude ${installed}   # then add ${installed} to CORPUS_VERSIONS (io/screen/profiles/claude-versions.ts) once its corpus test passes`,
  };
}

export async function runDoctor(home: string): Promise<{ ok: boolean; checks: Check[] }> {
  const checks: Check[] = [];
  const major = Number(process.versions.node.split('.')[0]);
  checks.push({ name: 'node', ok: major >= 20, detail: `v${process.versions.node}`, fix: major >= 20 ? undefined : 'install Node.js 20 or newer (https://nodejs.org or your package manager)' });
  const git = await version('git', ['--version']);
  checks.push({ name: 'git', ok: Boolean(git), detail: git ?? 'not found', fix: git ? undefined : FIX_GIT });
  const tmux = await version('tmux', ['-V']);
  checks.push({ name: 'tmux', ok: Boolean(tmux), detail: tmux ?? 'not found (the default backend)', fix: tmux ? undefined : FIX_TMUX });
  for (const mod of ['node-pty', 'better-sqlite3']) {
    let ok = true;
    let detail = 'native module loads';
    try {
      require(mod);
    } catch (err) {
      ok = false;
      detail = (err as Error).message.split('\n')[0]!;
    }
    checks.push({ name: mod, ok, detail, fix: ok ? undefined : `npm rebuild ${mod}   # needs python3, make and a C++ compiler` });
  }
  const claude = claudeBinary(cliEnv());
  const claudeVersion = claude ? await version(claude, ['--version']) : null;
  checks.push({
    name: 'claude', ok: Boolean(claudeVersion), optional: true,
    detail: claudeVersion ? `${claudeVersion} (${claude})` : 'Claude Code not found (needed for --agent claude; the mock agent works without it)',
    fix: claudeVersion ? undefined : FIX_CLAUDE,
  });
  const codex = codexBinary(cliEnv());
  const codexVersion = codex ? await codexVersionOf(codex) : null;
  checks.push({
    name: 'codex', ok: Boolean(codexVersion), optional: true,
    detail: codexVersion ? `${codexVersion} (${codex}), ${codexCorpusStanding(codexVersion)}` : codex ? `Codex CLI at ${codex} did not say its version` : 'Codex CLI not found (needed for --agent codex)',
    fix: codexVersion ? undefined : FIX_CODEX,
  });
  // Only push-capable postures need gh, only no-mistakes postures the gate: optional here.
  const gh = findExecutable('gh', cliEnv());
  const ghVersion = gh ? await version(gh, ['--version']) : null;
  const login = gh ? ghLoggedIn(cliEnv()) : 'no';
  checks.push({
    name: 'gh', ok: Boolean(ghVersion) && login !== 'no', optional: true,
    // doctor runs in the caller's process: its PATH is the one annex sends the daemon too.
    detail: !ghVersion ? `GitHub CLI not found (needed by direct-PR and no-mistakes projects; searched PATH ${cliEnv().PATH ?? ''})` : `${ghVersion}${login === 'no' ? ' — not logged in' : login === 'unknown' ? ' — login could not be told' : ''}`,
    fix: !ghVersion ? GH_INSTALL : login === 'no' ? 'gh auth login' : undefined,
  });
  const nm = findExecutable('no-mistakes', cliEnv());
  const nmVersion = nm ? await version(nm, ['--version']) : null;
  checks.push({
    name: 'no-mistakes', ok: Boolean(nmVersion), optional: true,
    detail: nmVersion ? `${nmVersion} (${nm})` : `the no-mistakes review gate not found (needed by no-mistakes projects; searched PATH ${cliEnv().PATH ?? ''})`,
    fix: nmVersion ? undefined : NO_MISTAKES_INSTALL,
  });
  // Every worker runs in kingshand's sandbox where it can be built; posture off is refused where it cannot.
  const sandbox = probeSandbox(cliEnv());
  checks.push({
    name: 'sandbox', ok: sandbox.ok, optional: true,
    detail: sandbox.ok
      ? `kingshand's worker sandbox works here (bubblewrap ${sandbox.version ?? '?'}, ${sandbox.bwrap}): every worker and everything it starts runs in it`
      : `kingshand's worker sandbox cannot be built here: ${sandbox.reason}. Posture off is refused (edits and ask work, a person reading each command)`,
    fix: sandbox.ok ? undefined : sandbox.fix,
  });
  checks.push(await geminiCheck(cliEnv()));
  checks.push(await opencodeCheck(cliEnv()));
  checks.push(await qwenCheck(cliEnv()));
  const newer = claudeNewerThanCorpus(claudeVersion);
  if (newer !== null) checks.push(newer);
  const herdrBin = cliEnv().HAND_HERDR_BIN;
  if (herdrBin) {
    const herdr = await version(herdrBin, ['--version']);
    checks.push({ name: 'herdr', ok: Boolean(herdr), optional: true, detail: herdr ?? `${herdrBin} does not run`, fix: herdr ? undefined : 'point HAND_HERDR_BIN at a working herdr binary, or unset it' });
  }
  if (existsSync(home)) {
    const st = statSync(home);
    let writable = true;
    try {
      accessSync(home, constants.R_OK | constants.W_OK | constants.X_OK);
    } catch {
      writable = false;
    }
    const privateMode = (st.mode & 0o077) === 0;
    checks.push({
      name: 'state dir', ok: st.isDirectory() && writable && privateMode,
      detail: `${home} ${st.isDirectory() ? '' : '(not a directory) '}mode ${(st.mode & 0o777).toString(8)}${writable ? '' : ' (not writable)'}`,
      fix: st.isDirectory() && writable && privateMode ? undefined : `chmod 700 ${home}`,
    });
  } else {
    checks.push({ name: 'state dir', ok: true, detail: `${home} (created on first use, mode 700)` });
  }
  const db = join(home, 'fleet.db');
  if (existsSync(db)) {
    const damage = inspectDatabase(db);
    checks.push({
      name: 'fleet database', ok: damage === null, detail: damage === null ? `${db} reads whole` : `${db} is damaged: ${damage}`,
      // Restoring the newest backup keeps the fleet's records; it moves the damaged files aside.
      fix: damage === null ? undefined : `hand daemon restore-db --home ${home}   # restores the newest backup from ${join(home, 'backups')}; the damaged files are moved aside`,
    });
  }
  // Whether kingshand still reads each installed agent as installed now (issue 39): a version
  // never calibrated, or one that failed, is said with the command that calibrates it.
  for (const c of await calibrationStandings(cliEnv(), home)) {
    const ok = c.standing === 'calibrated';
    checks.push({ name: `${c.agent} reading`, ok, optional: true, detail: c.line, ...(ok ? {} : { fix: `${CALIBRATE_COMMAND} --agent ${c.agent}` }) });
  }
  checks.push(freeSpaceCheck(home));
  const writes = await storeWritesCheck(home);
  if (writes) checks.push(writes);
  const notify = notificationCheck(home);
  if (notify) checks.push(notify);
  return { ok: checks.every((c) => c.ok || c.optional), checks };
}

/** Below this much free space under the state directory, doctor fails: the daemon would soon stop taking writes. */
const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** Free space on the file system that holds the state directory (or would hold it). */
function freeSpaceCheck(home: string): Check {
  let dir = home;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    const fs = statfsSync(dir);
    const free = fs.bavail * fs.bsize;
    const mb = (free / 1024 / 1024).toFixed(1);
    return free >= MIN_FREE_BYTES
      ? { name: 'disk space', ok: true, detail: `${mb} MB free under ${dir}` }
      : { name: 'disk space', ok: false, detail: `only ${mb} MB free under ${dir}: with a full disk the daemon keeps its transitions in memory and refuses new work until space returns`, fix: `free space on that file system (df -h ${dir})` };
  } catch (err) {
    return { name: 'disk space', ok: true, optional: true, detail: `could not tell the free space under ${dir}: ${(err as Error).message}` };
  }
}

/** The running daemon's word on its database (never starts one): null when none answers. */
async function storeWritesCheck(home: string): Promise<Check | null> {
  const { call } = await import('../client.ts');
  const { homePaths } = await import('../../contract/home.ts');
  const ping = await call(homePaths(home), 'ping', {}, { autostart: false }).catch(() => null);
  if (!ping) return null;
  if (!ping.store) return { name: 'state writes', ok: true, detail: 'the daemon writes its transitions as they happen' };
  const { storeLine } = await import('../store-line.ts');
  return {
    name: 'state writes', ok: false,
    detail: storeLine(ping.store, home).trim(),
    fix: ping.store.trouble === 'locked' ? `close the program holding ${join(home, 'fleet.db')} open for writing (fuser ${join(home, 'fleet.db')})` : `free space on the disk under ${home} (df -h ${home})`,
  };
}

export function formatDoctor(r: { ok: boolean; checks: Check[] }): string {
  const lines = r.checks.map((c) => `${c.ok ? '✓' : c.optional ? '!' : '✗'} ${c.name.padEnd(15)} ${c.detail}${c.fix ? `\n    fix: ${c.fix}` : ''}`);
  lines.push(r.ok ? 'all required checks passed' : 'some required checks failed: run the fix commands above');
  return lines.join('\n');
}
