/**
 * `npm test` leaves the machine's NODE_EXTRA_CA_CERTS out of the suite's processes
 * (scripts/suite-env.mjs): with it, every Node start parses that bundle before its first line
 * (92 ms of CPU for a bare `node -e 0` on the suite's machine, against 27 without), and the suite
 * starts ~1,200 of them while reaching nothing past 127.0.0.1. The npm install into the agent
 * cache, the one reach for the registry, gets it back (tests/harness/cached-agent-version.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { suiteEnv } from '../../scripts/suite-env.mjs';
import { registryEnv } from '../harness/cached-agent-version.ts';
import { makeTempDir } from '../helpers/temp.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** What a Node process started with `env` says on stderr about its extra certificates. */
function nodeStartSays(env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, ['-e', '0'], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 10_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

describe("the suite's Node processes start without the machine's CA bundle", () => {
  it('moves NODE_EXTRA_CA_CERTS aside for the suite, and a Node started with that environment loads no bundle', () => {
    const dir = makeTempDir('suite-ca');
    cleanup = dir.cleanup;
    // A bundle that is not there: a Node start that goes to load it says so on stderr.
    const bundle = join(dir.path, 'absent-bundle.pem');
    const machine = { HOME: dir.path, NODE_EXTRA_CA_CERTS: bundle, OTHER: 'kept' };
    expect(nodeStartSays(machine)).toContain(bundle);

    const { env, movedCa } = suiteEnv(machine);
    expect(movedCa).toBe(bundle);
    expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined();
    expect(env.KH_MACHINE_NODE_EXTRA_CA_CERTS).toBe(bundle);
    expect(env.OTHER).toBe('kept');
    expect(nodeStartSays(env)).not.toContain(bundle);
    // The machine's own environment object is not changed.
    expect(machine.NODE_EXTRA_CA_CERTS).toBe(bundle);

    // npm's install into the agent cache gets the bundle back.
    expect(registryEnv(env).NODE_EXTRA_CA_CERTS).toBe(bundle);
    expect(nodeStartSays(registryEnv(env))).toContain(bundle);
  });

  it('changes nothing when the machine sets no bundle, or when KH_SUITE_CA=keep', () => {
    expect(suiteEnv({ HOME: '/h' })).toEqual({ env: { HOME: '/h' }, movedCa: null });
    const kept = suiteEnv({ NODE_EXTRA_CA_CERTS: '/etc/ca.pem', KH_SUITE_CA: 'keep' });
    expect(kept.movedCa).toBeNull();
    expect(kept.env.NODE_EXTRA_CA_CERTS).toBe('/etc/ca.pem');
    // A bundle the suite's environment already names is the one the install uses.
    expect(registryEnv({ NODE_EXTRA_CA_CERTS: '/a.pem', KH_MACHINE_NODE_EXTRA_CA_CERTS: '/b.pem' }).NODE_EXTRA_CA_CERTS).toBe('/a.pem');
    expect(registryEnv({ HOME: '/h' })).toEqual({ HOME: '/h' });
  });

  it.runIf(process.env.KH_MACHINE_NODE_EXTRA_CA_CERTS !== undefined)('under npm test, this very worker started without it', () => {
    expect(process.env.NODE_EXTRA_CA_CERTS).toBeUndefined();
  });
});
