/**
 * OpenCode against the fake Anthropic Messages API (io/fake-model/anthropic.ts, which says its
 * calls in OpenCode's tool names: anthropic/tool-dialect.ts), for `hand doctor --calibrate`. The
 * throwaway HOME holds what a person who set OpenCode up has (fakeProviderSetup): a provider in
 * their global config pointed at the fake. The model catalog fetch and LSP downloads are turned
 * off as launch variables; sharing and the updater are off for every worker (launch-env.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
// The fake is loaded only when a calibration runs: a profile is read by every command.
import type { ScriptItem } from '../../fake-model/anthropic.ts';
import { writePrivateFile } from '../../fs/private-files.ts';
import { CALIBRATION_KEY, CALIBRATION_QUESTION, type CalibrationKit, type CalibrationReply } from '../calibration-kit.ts';
import { anthropicReply } from '../anthropic-calibration-replies.ts';

/** The provider and model a fake setup names (`<provider>/<model>`, as OpenCode's footer shows them). */
export const FAKE_PROVIDER = 'kingshand-fake';
export const FAKE_MODEL = 'claude-fake';

/**
 * A person's finished OpenCode setup in `home`, pointed at a fake Anthropic API at `fakeUrl`:
 * `~/.config/opencode/opencode.json` naming one provider (OpenCode's bundled Anthropic SDK, the
 * fake's URL, a stand-in key) and its model; and the plugin kit OpenCode installs beside the
 * config on its first run (package.json, its lock, node_modules) — without it, 1.18.33 runs npm
 * against the registry in the background at every start (`@opencode-ai/plugin`). Returns the
 * launch variables that keep it off every other host: no model catalog fetch, no LSP download.
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
  return { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' };
}

/** OpenCode's tools, in the calibration's replies (its Anthropic provider talks to the same fake as Claude Code). */
const itemOf = (reply: CalibrationReply): ScriptItem => anthropicReply(reply, { shell: 'bash', ask: 'question', oneChoice: { multiple: false } });

export const opencodeCalibrationKit: CalibrationKit = {
  async startFake() {
    const { startFakeAnthropic } = await import('../../fake-model/anthropic.ts');
    // An error stands until the next reply is scripted: an agent that retries a refused turn is refused again.
    let refusing: ScriptItem | null = null;
    const fake = await startFakeAnthropic({ suggestion: null, respond: () => refusing });
    const main = () => fake.received.filter((r) => r.kind === 'main');
    return {
      url: fake.url,
      turns: () => main().length,
      toolResultAfter: (after) => main().slice(after).find((r) => (r.summary?.toolResults.length ?? 0) > 0)?.summary?.toolResults[0]?.content ?? null,
      next(reply) {
        const item = itemOf(reply);
        refusing = item.kind === 'error' ? item : null;
        if (refusing === null) fake.queue([item]);
      },
      close: () => fake.close(),
    };
  },
  seedHome(home, fakeUrl) {
    return fakeProviderSetup(home, fakeUrl);
  },
  question: CALIBRATION_QUESTION.question,
  // Its witness plugin (witness-plugin.mjs): session.status busy, session.idle, permission.asked, session.error.
  witness: { working: 'working', finished: 'idle', permission: 'needs-input', 'api-error': 'failed' },
  // "Allow once" is the first button and the one selected; the question leaves with esc (dismiss).
  allowKeys: ['enter'],
  leaveQuestionKeys: ['escape'],
};
