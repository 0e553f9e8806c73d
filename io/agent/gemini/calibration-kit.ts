/**
 * Gemini CLI against the fake Gemini API (io/fake-model/gemini.ts), for `hand doctor
 * --calibrate`. It needs no file of its own in the throwaway HOME: the key and the endpoint come
 * as launch variables, and dispatch's seed writes the workspace settings that select key auth
 * and turn off its updater, statistics and telemetry.
 */
// The fake is loaded only when a calibration runs: a profile is read by every command.
import type { GeminiScriptItem } from '../../fake-model/gemini.ts';
import { CALIBRATION_KEY, CALIBRATION_QUESTION, driveFake, slowWordDelayMs, type CalibrationKit, type CalibrationReply, USUAL_DIALOGS } from '../calibration-kit.ts';

function itemOf(reply: CalibrationReply): GeminiScriptItem {
  switch (reply.kind) {
    case 'slow':
      return { kind: 'text', text: reply.text, wordDelayMs: slowWordDelayMs(reply) };
    case 'permission':
      return { kind: 'call', name: 'run_shell_command', text: 'I will run a command.', args: { command: `touch ${reply.file}`, description: 'Create the calibration file' } };
    case 'question':
      return { kind: 'call', name: 'ask_user', text: 'I have a question.', args: { questions: [{ ...CALIBRATION_QUESTION, type: 'choice' }] } };
    case 'error':
      return { kind: 'error', status: 400, message: reply.message };
  }
}

export const geminiCalibrationKit: CalibrationKit = {
  async startFake() {
    const { startFakeGemini } = await import('../../fake-model/gemini.ts');
    return driveFake((respond) => startFakeGemini({ respond }), itemOf, (fake) => {
      const main = () => fake.received.filter((r) => r.kind === 'main');
      return {
        turns: () => main().length,
        toolResultAfter: (after) => main().slice(after).find((r) => (r.summary?.functionResponses.length ?? 0) > 0)?.summary?.functionResponses[0]?.content ?? null,
      };
    });
  },
  seedHome(_home, fakeUrl) {
    return { GEMINI_API_KEY: CALIBRATION_KEY, GOOGLE_GEMINI_BASE_URL: fakeUrl };
  },
  ...USUAL_DIALOGS,
  // BeforeAgent, AfterAgent and Notification (ToolPermission) in the worktree's settings (actors/witness.ts).
  witness: { working: 'working', finished: 'idle', permission: 'needs-input' },
};
