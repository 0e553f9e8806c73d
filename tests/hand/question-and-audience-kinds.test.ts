/**
 * The pure parts of the Hand's views: the question a blocked worker asks, lifted from real
 * Claude Code 2.1.332 screens, and the audience kind each journaled stage stands for.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { optionsOf, questionOf } from '../../io/screen/question-text.ts';
import { kindOf } from '../../actors/daemon/fleet-picture.ts';

const capture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/claude-code/2.1.332/${name}.txt`, import.meta.url)), 'utf8');

describe('the question of a blocked worker', () => {
  it('an AskUserQuestion menu gives its question and its options', () => {
    const screen = capture('07-ask-user-question');
    expect(questionOf(screen)).toBe('Which database should the fake project use?');
    expect(optionsOf(screen).slice(0, 3)).toEqual(['1. SQLite', '2. Postgres', '3. None']);
  });

  it('a permission prompt gives "Do you want to proceed?" and its choices', () => {
    const screen = capture('06-permission-bash');
    expect(questionOf(screen)).toBe('Do you want to proceed?');
    expect(optionsOf(screen)[0]).toBe('1. Yes');
  });

  it('a screen with no question gives null', () => {
    expect(questionOf(capture('04-idle-box'))).toBeNull();
  });
});

describe('audience kinds', () => {
  it('the first row of a worker is its dispatch; blocked, settled, stalled come from the condition', () => {
    expect(kindOf('admission', null, true)).toBe('dispatched');
    expect(kindOf('running.blocked', 'dispatched', false)).toBe('blocked');
    expect(kindOf('settled.unconfirmed', 'answered', false)).toBe('settled');
    expect(kindOf('running.stalled', null, false)).toBe('stalled');
  });

  it('working again after blocked is an answer, after settled a new prompt; otherwise nothing to tell', () => {
    expect(kindOf('running.working', 'blocked', false)).toBe('answered');
    expect(kindOf('running.working', 'settled', false)).toBe('prompted');
    expect(kindOf('running.working', 'dispatched', false)).toBeNull();
  });

  it('landed is a landing; every other end is an exit', () => {
    expect(kindOf('landed', 'settled', false)).toBe('landed');
    for (const end of ['stopped', 'gone', 'failed', 'lost']) expect(kindOf(end, 'settled', false), end).toBe('exited');
  });
});
