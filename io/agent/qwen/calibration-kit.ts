/**
 * Qwen Code against the fake Anthropic Messages API (io/fake-model/anthropic.ts, which says its
 * calls in Qwen Code's tool names: anthropic/tool-dialect.ts), for `hand doctor --calibrate`. The
 * throwaway HOME holds what a person who chose Qwen Code's Anthropic auth has (fakeQwenSetup):
 * `~/.qwen/settings.json` selecting it; the endpoint, key and model come as launch variables.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
// The fake is loaded only when a calibration runs: a profile is read by every command.
import type { ScriptItem } from '../../fake-model/anthropic.ts';
import { writePrivateFile } from '../../fs/private-files.ts';
import { CALIBRATION_KEY, CALIBRATION_QUESTION, driveFake, type CalibrationKit, type CalibrationReply } from '../calibration-kit.ts';
import { anthropicReply } from '../anthropic-calibration-replies.ts';

export const FAKE_QWEN_MODEL = 'claude-fake';

/**
 * A person's finished Qwen Code setup in `home` pointed at a fake Anthropic API at `fakeUrl`: the
 * Anthropic auth chosen in `~/.qwen/settings.json` (with its version key, so it is not rewritten)
 * and the three variables it reads for it. Returns those variables.
 */
export function fakeQwenSetup(home: string, fakeUrl: string, key: string = CALIBRATION_KEY): Record<string, string> {
  const dir = join(home, '.qwen');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writePrivateFile(join(dir, 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'anthropic' } }, $version: 4 }, null, 2)}\n`);
  return { ANTHROPIC_BASE_URL: fakeUrl, ANTHROPIC_API_KEY: key, ANTHROPIC_MODEL: FAKE_QWEN_MODEL };
}

const itemOf = (reply: CalibrationReply): ScriptItem => anthropicReply(reply, { shell: 'run_shell_command', ask: 'ask_user_question', oneChoice: { multiSelect: false } });

export const qwenCalibrationKit: CalibrationKit = {
  async startFake() {
    const { startFakeAnthropic } = await import('../../fake-model/anthropic.ts');
    return driveFake((respond) => startFakeAnthropic({ suggestion: null, respond }), itemOf, (fake) => {
      const main = () => fake.received.filter((r) => r.kind === 'main');
      return {
        turns: () => main().length,
        toolResultAfter: (after) => main().slice(after).find((r) => (r.summary?.toolResults.length ?? 0) > 0)?.summary?.toolResults[0]?.content ?? null,
      };
    });
  },
  seedHome(home, fakeUrl) {
    return fakeQwenSetup(home, fakeUrl);
  },
  question: CALIBRATION_QUESTION.question,
  // Its hooks are Claude Code's: UserPromptSubmit, Stop, Notification (permission_prompt), StopFailure.
  witness: { working: 'working', finished: 'idle', permission: 'needs-input', 'api-error': 'failed' },
  // Its shell call shows as running before its dialog is drawn (seen 4-7 s later under load).
  permissionWindowMs: 12_000,
  // "Yes, allow once" is the first option and the one selected; the question leaves with esc.
  allowKeys: ['enter'],
  leaveQuestionKeys: ['escape'],
};
