/**
 * Every real Claude Code capture (2.1.332, fullscreen and classic renderers, plain and SGR)
 * reads as the state it was captured in. The table was written by reading each capture.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseScreen, type ScreenReading } from '../../io/screen/index.ts';
import { FIXTURE_DIR, fixtureScreen } from './helpers.ts';

type Expected = Pick<ScreenReading, 'state' | 'awaitingInput' | 'blockedReason' | 'promptBox' | 'promptBoxKind'>;

const idle = (promptBox = '', promptBoxKind: Expected['promptBoxKind'] = promptBox === '' ? 'empty' : 'typed'): Expected => ({
  state: 'idle',
  awaitingInput: false,
  blockedReason: null,
  promptBox,
  promptBoxKind,
});
const working: Expected = { state: 'working', awaitingInput: false, blockedReason: null, promptBox: '', promptBoxKind: 'empty' };
const exited: Expected = { state: 'exited', awaitingInput: false, blockedReason: null, promptBox: null, promptBoxKind: null };
const blocked = (blockedReason: Expected['blockedReason']): Expected => ({
  state: 'blocked',
  awaitingInput: true,
  blockedReason,
  promptBox: null,
  promptBoxKind: null,
});

/** Keyed by capture name without extension; `.ansi` keys override where attributes change the answer. */
const EXPECTED: Record<string, Expected> = {
  // offline first run: the connectivity check failed and tmux shows the pane dead (status 1)
  '2.1.332/00-first-run-connectivity-fail': exited,
  '2.1.332/01-onboarding-theme': blocked('onboarding'),
  '2.1.332/01b-onboarding-security-notes': blocked('onboarding'),
  '2.1.332/02-api-key-confirm': blocked('api-key'),
  '2.1.332/02b-onboarding-api-key-confirm': blocked('api-key'),
  '2.1.332/03-trust-dialog': blocked('folder-trust'),
  '2.1.332/04-idle-box': idle(),
  '2.1.332/04c-auto-mode-offer-dialog': blocked('auto-mode'),
  '2.1.332/04d-box-with-typed-text': idle('half typed'),
  '2.1.332/04e-idle-box-minimal-seed-auto-notice': idle(),
  '2.1.332/05-working-spinner-a': working,
  '2.1.332/05-working-spinner-b': working,
  '2.1.332/05-working-spinner-start': working,
  '2.1.332/05c-working-tool-running': working,
  '2.1.332/05d-working-stalled': working,
  '2.1.332/06-permission-bash': blocked('permission'),
  '2.1.332/06b-after-permission-yes': idle(),
  '2.1.332/07-ask-user-question': blocked('question'),
  '2.1.332/07b-after-answer': idle(),
  '2.1.332/08-turn-finished': idle(),
  '2.1.332/08a-turn-finished-plain': idle(),
  // without attributes a suggestion cannot be told from typed text: typed (still refused)
  '2.1.332/09-prompt-suggestion': idle('run the tests', 'typed'),
  '2.1.332/09-prompt-suggestion.ansi': idle('run the tests', 'suggestion'),
  // the slash menu is the person typing, not a dialog
  '2.1.332/09b-slash-menu-exit': idle('/exit'),
  '2.1.332/10-after-exit': exited,
  // Esc before any reply puts the prompt back into the box
  '2.1.332/11-interrupted': idle('MODE:hang stall the stream'),
  '2.1.332/11b-interrupted-mid-stream': idle(),
  '2.1.332/12-api-error-400': idle(),
  '2.1.332-classic/04-idle-box': idle(),
  '2.1.332-classic/05-working-spinner-a': working,
  '2.1.332-classic/05-working-spinner-b': working,
  '2.1.332-classic/08-turn-finished': idle(),
  // the dead `/exit` box stays drawn above the resume hint: exited, no live box
  '2.1.332-classic/10-after-exit': exited,
  // screens the real-binary tests saw that the first set lacked (observed/README.md)
  'observed/2.1.332/06-permission-bash-classic': blocked('permission'),
  'observed/2.1.332/08c-turn-finished-after-ctrl-u': idle(),
  'observed/2.1.332/08c-turn-finished-after-ctrl-u-classic': idle(),
  // issue 39: a custom statusLine command's row between the box and the auto-mode footer
  'observed/2.1.332/04f-idle-custom-status-line-auto-mode': idle(),
  // --permission-mode bypassPermissions without the consent key (posture off, unseeded): a blocked start
  'observed/2.1.332/03b-bypass-permissions-warning': blocked('bypass-warning'),
  // issue 43: a finished turn that left a background shell running (`· 1 shell still running`) is work, not idle
  'observed/2.1.332/13-idle-with-a-background-shell': working,
  'observed/2.1.332/13-idle-with-a-background-shell-classic': working,
  'observed/2.1.332/13b-idle-after-the-background-shell-ended': idle(),
  'observed/2.1.332/13b-idle-after-the-background-shell-ended-classic': idle(),
};

/** Every capture file below the fixture directory (READMEs aside). */
function captures(): string[] {
  const entries = readdirSync(FIXTURE_DIR, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.txt'))
    .map((e) => relative(FIXTURE_DIR, join(e.parentPath, e.name)))
    .sort();
}

function expectedFor(capture: string): Expected | undefined {
  const key = capture.replace(/\.txt$/, '');
  return EXPECTED[key] ?? EXPECTED[key.replace(/\.ansi$/, '')];
}

describe('every capture classifies as the state it was captured in', () => {
  it('the table covers every capture, in both renderers and both formats', () => {
    const all = captures();
    // 27 fullscreen + 5 classic screens from the reference set, each plain and SGR
    expect(all.filter((c) => !c.startsWith('observed/')).length).toBe(64);
    expect(all.filter((c) => expectedFor(c) === undefined)).toEqual([]);
    expect(all.filter((c) => c.endsWith('.ansi.txt')).length * 2).toBe(all.length);
  });

  it.each(captures())('%s', (capture) => {
    const reading = analyseScreen(fixtureScreen(capture));
    const { state, awaitingInput, blockedReason, promptBox, promptBoxKind } = reading;
    expect({ state, awaitingInput, blockedReason, promptBox, promptBoxKind }).toEqual(expectedFor(capture));
    // every capture is a 120x40 pane: all are readable and carry a fingerprint
    expect(reading.readable).toBe(true);
    expect(reading.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('the plain and the SGR capture of the same screen fingerprint alike', () => {
    for (const capture of captures().filter((c) => c.endsWith('.ansi.txt'))) {
      const plain = capture.replace('.ansi.txt', '.txt');
      expect(analyseScreen(fixtureScreen(capture)).fingerprint, capture).toBe(analyseScreen(fixtureScreen(plain)).fingerprint);
    }
  });
});
