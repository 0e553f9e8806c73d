/**
 * Rule (issue 40): the kit says, in the words the workflow depends on, how the person's notes on
 * the review page come back (muster: a revised brief before approval, a steer after, taken once
 * acted on, never written by the Hand) and how browser checks are written (witness: a
 * `## Browser checks` section, one `C-` check a line, read-only unless `[interact]`, `not checked`
 * never verified), each reached by a line of CLAUDE.md — which stays within its budget: it loads
 * with every turn, and situational detail lives in the skills.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KIT_DIR, SKILLS } from '../../io/workspace/init.ts';
import { useKit } from '../helpers/kit-workspace.ts';

const makeKit = useKit();
/** CLAUDE.md's budget in characters (about 1750 tokens): what every turn of the Hand pays before the person says a word. */
const CLAUDE_MD_BUDGET = 7000;

describe('the kit says how notes and browser checks come back', () => {
  it('muster: notes on the brief become a revised brief, later ones a steer, each taken; none is the Hand\'s own', async () => {
    const { read } = await makeKit('kit-notes');
    const muster = read('.claude/skills/muster/SKILL.md');
    for (const words of [
      '**Their notes come back.**',
      '(R-, C-, Q-, F-)',
      '"the person annotated <id>\'s brief:',
      '`annotations`',
      'On the brief, before approval: a revised brief',
      '`reject` the brief gate with "revised brief follows"',
      '`dispatch` the same id with `item` and `brief`',
      'After approval: a steer - `send` their words to the worker',
      '`annotations_take`',
      'Never write a note yourself: they are the person\'s alone.',
      '`## Browser checks` (load witness)',
    ]) expect(muster, words).toContain(words);
  });

  it('witness: a Browser checks section, one C- check a line, read-only unless [interact], not checked is never verified', async () => {
    const { read } = await makeKit('kit-witness');
    expect(SKILLS).toContain('witness');
    const witness = read('.claude/skills/witness/SKILL.md');
    expect(witness).toMatch(/^--- name: witness description: .+ --- # witness /);
    for (const words of [
      '`## Browser checks` section',
      '`C-001`, `C-002`',
      '**Read-only unless the brief authorises more.**',
      'end its line with `[interact]`',
      '127.0.0.1',
      '`## Running the browser checks`',
      '`evidence.browserChecks`',
      '`not checked` is never verified',
      'you never run a browser yourself',
    ]) expect(witness, words).toContain(words);
    const claude = read('CLAUDE.md');
    expect(claude).toContain('| a change a person sees in a browser: browser checks in the brief | witness |');
    expect(claude).toContain("a note the person wrote on a worker's page");
  });

  it(`CLAUDE.md stays within its budget of ${CLAUDE_MD_BUDGET} characters`, () => {
    const text = readFileSync(join(KIT_DIR, 'CLAUDE.md'), 'utf8');
    expect(text.length, 'move situational detail into a skill').toBeLessThanOrEqual(CLAUDE_MD_BUDGET);
  });
});
