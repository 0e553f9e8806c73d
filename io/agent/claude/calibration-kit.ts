/**
 * Claude Code against the fake Anthropic Messages API (io/fake-model/anthropic.ts), for
 * `hand doctor --calibrate`. The throwaway HOME holds what a person who finished onboarding has
 * (.claude.json with onboarding and the auto-mode notices seen, a theme in settings.json); the
 * endpoint and a bearer token (no key approval needed) come as launch variables, with the
 * switches that keep it off every host but the fake (telemetry, updater, error reports).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
// The fake is loaded only when a calibration runs: a profile is read by every command.
import type { ScriptItem } from '../../fake-model/anthropic.ts';
import { writePrivateFile } from '../../fs/private-files.ts';
import { CALIBRATION_KEY, CALIBRATION_QUESTION, driveFake, type CalibrationKit, type CalibrationReply } from '../calibration-kit.ts';
import { anthropicReply } from '../anthropic-calibration-replies.ts';

/** Claude Code's tools, in the calibration's replies. */
const itemOf = (reply: CalibrationReply): ScriptItem => anthropicReply(reply, { shell: 'Bash', ask: 'AskUserQuestion', oneChoice: { multiSelect: false } });

export const claudeCalibrationKit: CalibrationKit = {
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
  seedHome(home, fakeUrl, version) {
    mkdirSync(join(home, '.claude'), { recursive: true, mode: 0o700 });
    const claudeJson = {
      hasCompletedOnboarding: true,
      ...(version ? { lastOnboardingVersion: version } : {}),
      hasSeenAutoDefaultNotice: true,
      hasSeenAutoDefaultNudge: true,
      projects: {},
    };
    writePrivateFile(join(home, '.claude.json'), `${JSON.stringify(claudeJson, null, 2)}\n`);
    writePrivateFile(join(home, '.claude', 'settings.json'), `${JSON.stringify({ theme: 'dark' }, null, 2)}\n`);
    return {
      ANTHROPIC_BASE_URL: fakeUrl,
      ANTHROPIC_AUTH_TOKEN: CALIBRATION_KEY,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
  },
  question: CALIBRATION_QUESTION.question,
  // UserPromptSubmit, Stop, Notification (permission_prompt), StopFailure, SessionEnd (actors/witness.ts).
  witness: { working: 'working', finished: 'idle', permission: 'needs-input', 'api-error': 'failed', exit: 'ended' },
  allowKeys: ['enter'],
  leaveQuestionKeys: ['escape'],
};
