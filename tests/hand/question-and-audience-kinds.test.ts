/**
 * The pure parts of the Hand's views: the question a blocked worker asks, lifted from real
 * Claude Code 2.1.332 screens, and the audience kind each journaled stage stands for.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { optionsOf, questionOf } from '../../io/screen/question-text.ts';
import { kindOf } from '../../daemon/gates/fleet-picture.ts';

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
  it('blocked, idle, stalled come from the state; a step between them tells nothing', () => {
    expect(kindOf('admission', null)).toBeNull();
    expect(kindOf('running.blocked', 'dispatched')).toBe('blocked');
    expect(kindOf('settled.unconfirmed', 'answered')).toBe('idle');
    expect(kindOf('running.stalled', null)).toBe('stalled');
  });

  it('working again after blocked is an answer, after a rest a new prompt, after the brief gate the start; otherwise nothing to tell', () => {
    expect(kindOf('running.working', 'blocked')).toBe('answered');
    for (const rest of ['idle', 'done', 'parked'] as const) expect(kindOf('running.working', rest), rest).toBe('prompted');
    expect(kindOf('starting.waiting', 'brief-gate')).toBe('started');
    expect(kindOf('running.working', 'dispatched')).toBeNull();
    expect(kindOf('teardown.awaitingExit', 'blocked'), 'a stop is no answer').toBeNull();
  });

  it('each end is told as the end it is: landed, rejected, stopped, exited, failed, lost', () => {
    expect(kindOf('landed', 'idle')).toBe('landed');
    expect(kindOf('rejected', 'brief-gate')).toBe('rejected');
    expect(kindOf('stopped', 'idle')).toBe('stopped');
    expect(kindOf('gone', 'idle')).toBe('exited');
    expect(kindOf('failed', 'idle')).toBe('failed');
    expect(kindOf('lost', 'idle')).toBe('lost');
  });
});
