/**
 * Claude Code against the fake Anthropic Messages API (io/fake-model/anthropic.ts), for
 * `hand doctor --calibrate`. The throwaway HOME holds what a person who finished onboarding has
 * (.claude.json with onboarding and the auto-mode notices seen, a theme in settings.json); the
 * endpoint and a bearer token (no key approval needed) come as launch variables, with the
 * switches that keep it off every host but the fake (telemetry, updater, error reports).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../../fs/private-files.ts';
import { CALIBRATION_KEY } from '../calibration-kit.ts';
import { anthropicCalibrationKit } from '../anthropic-calibration-replies.ts';

// Claude Code's tools, in the calibration's replies.
export const claudeCalibrationKit = anthropicCalibrationKit({ shell: 'Bash', ask: 'AskUserQuestion', oneChoice: { multiSelect: false } }, {
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
      // A scratch run against a fake: no clone of the official plugin marketplace from github.com
      // (Claude Code starts one in the background at every start, the switch above notwithstanding).
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    };
  },
  // UserPromptSubmit, Stop, Notification (permission_prompt), StopFailure, SessionEnd (actors/witness.ts).
  witness: { working: 'working', finished: 'idle', permission: 'needs-input', 'api-error': 'failed', exit: 'ended' },
});
