/**
 * OpenCode against the fake Anthropic Messages API (io/fake-model/anthropic.ts, which says its
 * calls in OpenCode's tool names: anthropic/tool-dialect.ts), for `hand doctor --calibrate`. The
 * throwaway HOME holds what a person who set OpenCode up has (fakeProviderSetup): a provider in
 * their global config pointed at the fake. The model catalog fetch and LSP downloads are turned
 * off as launch variables; sharing and the updater are off for every worker (launch-env.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../../fs/private-files.ts';
import { CALIBRATION_KEY } from '../calibration-kit.ts';
import { anthropicCalibrationKit } from '../anthropic-calibration-replies.ts';
import { opencodeDataHome } from './sandbox-home.ts';

/** The provider and model a fake setup names (`<provider>/<model>`, as OpenCode's footer shows them). */
export const FAKE_PROVIDER = 'kingshand-fake';
export const FAKE_MODEL = 'claude-fake';

/**
 * A person's finished OpenCode setup in `home`, pointed at a fake Anthropic API at `fakeUrl`:
 * `~/.config/opencode/opencode.json` naming one provider (OpenCode's bundled Anthropic SDK, the
 * fake's URL, a stand-in key) and its model; and the plugin kit OpenCode installs beside the
 * config on its first run (package.json, its lock, node_modules) — without it, 1.18.33 runs npm
 * against the registry in the background at every start (`@opencode-ai/plugin`) — and the model
 * catalog it caches (empty: the provider is the config's own). Returns the
 * launch variables that keep it off every other host: no model catalog fetch, no LSP download;
 * and OPENCODE_MODELS_PATH naming that empty catalog, the one a worker in kingshand's sandbox reads.
 */
export function fakeProviderSetup(home: string, fakeUrl: string, key: string = CALIBRATION_KEY): Record<string, string> {
  const dir = join(home, '.config', 'opencode');
  mkdirSync(join(dir, 'node_modules'), { recursive: true, mode: 0o700 });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [FAKE_PROVIDER]: {
        npm: '@ai-sdk/anthropic',
        name: 'Fake Anthropic',
        options: { baseURL: `${fakeUrl}/v1`, apiKey: key },
        models: { [FAKE_MODEL]: { name: 'Claude Fake' } },
      },
    },
    model: `${FAKE_PROVIDER}/${FAKE_MODEL}`,
  };
  writePrivateFile(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  const deps = { '@opencode-ai/plugin': '*' };
  writePrivateFile(join(dir, 'package.json'), `${JSON.stringify({ dependencies: deps }, null, 2)}\n`);
  writePrivateFile(join(dir, 'package-lock.json'), `${JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: deps } } }, null, 2)}\n`);
  writePrivateFile(join(dir, '.gitignore'), 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n');
  // The model catalog OpenCode keeps in its cache after a fetch, here empty: the one provider is
  // the config's own. Without a catalog file 1.18.33 decodes the one bundled in it, every provider
  // and model there is, at each start: ~3.5 CPU-s of a start's ~8, seconds before its server answers.
  const cache = join(home, '.cache', 'opencode');
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  writePrivateFile(join(cache, 'models.json'), '{}\n');
  // A worker in kingshand's sandbox has a cache home of its own (sandbox-home.ts), empty: it never
  // sees this file, and decoded the bundled catalog at each start. Named by OPENCODE_MODELS_PATH (a
  // person's variable: it reaches the worker, its file bound read-only, profiles/opencode.ts), it is
  // the one read: a worker through hand to its first permission dialog took 11.6 CPU-s without
  // it and 6.4 with it (three runs each, 10.2-13.1 and 6.2-6.6; its server thread 5.4-7.0 → 2.4-2.9).
  return { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_MODELS_PATH: join(cache, 'models.json') };
}

// OpenCode's tools, in the calibration's replies (its Anthropic provider talks to the same fake as
// Claude Code). "Allow once" is the first button and the one selected; the question leaves with
// esc (dismiss): the usual dialog keys.
export const opencodeCalibrationKit = anthropicCalibrationKit({ shell: 'bash', ask: 'question', oneChoice: { multiple: false } }, {
  seedHome: (home, fakeUrl) => fakeProviderSetup(home, fakeUrl),
  // Its witness plugin (witness-plugin.mjs): session.status busy, session.idle, permission.asked, session.error.
  witness: { working: 'working', finished: 'idle', permission: 'needs-input', 'api-error': 'failed' },
  // Its log (1.18.33: <data home>/opencode/log/opencode.log, each run appended): its server's steps,
  // its errors. Its data home is XDG_DATA_HOME, else ~/.local/share: the worker's own in the sandbox.
  agentLogDir: (launchEnv) => {
    const data = opencodeDataHome(launchEnv);
    return data === null ? null : join(data, 'opencode', 'log');
  },
});
