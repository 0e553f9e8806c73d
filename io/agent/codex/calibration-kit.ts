/**
 * Codex CLI against the fake Responses API (io/fake-model/codex.ts), for `hand doctor
 * --calibrate`. The throwaway CODEX_HOME holds a person's config.toml that names one provider,
 * the fake on 127.0.0.1 (its key read from OPENAI_API_KEY, no login), with the update check off
 * so nothing is asked of any other host.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
// The fake is loaded only when a calibration runs: a profile is read by every command.
import type { CodexScriptItem } from '../../fake-model/codex.ts';
import { writePrivateFile } from '../../fs/private-files.ts';
import { CALIBRATION_KEY, CALIBRATION_QUESTION, driveFake, type CalibrationKit, type CalibrationReply, USUAL_DIALOGS } from '../calibration-kit.ts';

function itemOf(reply: CalibrationReply): CodexScriptItem {
  switch (reply.kind) {
    case 'slow':
      return { kind: 'text', text: reply.text, delayMs: reply.ms };
    case 'permission':
      // Asked to run outside its own sandbox: under `ask` Codex puts that to the person.
      return { kind: 'shell', cmd: `touch ${reply.file}`, escalate: `May I create ${reply.file}?`, text: 'I will run a command.' };
    case 'question':
      return {
        kind: 'call',
        name: 'request_user_input',
        text: 'I have a question.',
        args: { questions: [{ id: 'database', header: CALIBRATION_QUESTION.header, question: CALIBRATION_QUESTION.question, options: CALIBRATION_QUESTION.options }] },
      };
    case 'error':
      return { kind: 'error', status: 400, message: reply.message };
  }
}

/** The provider block a person writes for an OpenAI-compatible endpoint (Responses wire, key from the environment). */
export function calibrationConfigToml(fakeUrl: string): string {
  return [
    'model = "gpt-fake"',
    'model_provider = "khcalibration"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.khcalibration]',
    'name = "kingshand calibration"',
    `base_url = "${fakeUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    // An error is the answer being calibrated: retried, it would only take longer to show.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

export const codexCalibrationKit: CalibrationKit = {
  async startFake() {
    const { startFakeCodexApi } = await import('../../fake-model/codex.ts');
    return driveFake((respond) => startFakeCodexApi({ respond }), itemOf, (fake) => ({
      turns: () => fake.turns().length,
      toolResultAfter: (after) => fake.turns().slice(after).find((r) => r.summary?.lastItem === 'tool-output')?.summary?.toolOutputs.at(-1)?.output ?? null,
    }));
  },
  seedHome(home, fakeUrl) {
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true, mode: 0o700 });
    writePrivateFile(join(codexHome, 'config.toml'), calibrationConfigToml(fakeUrl));
    return { CODEX_HOME: codexHome, OPENAI_API_KEY: CALIBRATION_KEY };
  },
  ...USUAL_DIALOGS,
  // Its notify command runs `hand hook Stop` at each turn's end, its only event.
  witness: { finished: 'idle' },
};
