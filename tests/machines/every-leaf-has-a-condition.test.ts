/**
 * Generated from the machine: every leaf state of the worker (finals included) must carry
 * exactly one condition tag on its path, and only tags the vocabulary knows. A new state with
 * no condition fails here, before `hand wait`, status or the gates could misread it.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { workerMachine } from '../../machines/worker.machine.ts';
import { CONDITIONS, STATE_MARKS, isOneOf } from '../../contract/vocabulary.ts';
import { meaningOfStage, meaningOfTags, tagsOfStage } from '../../actors/condition.ts';

function leaves(node: AnyStateNode, path: string[] = []): string[] {
  const children = Object.entries(node.states);
  if (children.length === 0) return [path.join('.')];
  return children.flatMap(([key, child]) => leaves(child, [...path, key]));
}

const stages = leaves(workerMachine.root as AnyStateNode);

describe('every leaf state of the worker machine declares its condition', () => {
  it('walks the whole machine (guards against an empty walk)', () => {
    expect(stages.length).toBeGreaterThan(30);
    expect(stages).toContain('running.blocked');
    expect(stages).toContain('rejected');
  });

  for (const stage of stages) {
    it(`${stage} has exactly one condition tag and only known tags`, () => {
      const tags = tagsOfStage(stage);
      expect(tags.filter((t) => isOneOf(CONDITIONS, t)), `condition tags of ${stage}`).toHaveLength(1);
      for (const t of tags) expect(isOneOf(CONDITIONS, t) || isOneOf(STATE_MARKS, t), `tag ${t} of ${stage}`).toBe(true);
      expect(() => meaningOfStage(stage)).not.toThrow();
    });
  }

  it('every final state is gone, and only final states are', () => {
    for (const stage of stages) {
      const final = (workerMachine.root.states[stage.split('.')[0]!] as AnyStateNode).type === 'final';
      expect(meaningOfStage(stage).condition === 'gone', stage).toBe(final);
    }
  });

  it('a state with no condition tag, or two, is refused by the derivation, naming it', () => {
    expect(() => meaningOfTags(['landable'], 'worker state x')).toThrow(/worker state x has 0 condition tags/);
    expect(() => meaningOfTags(['busy', 'settled'], 'worker state y')).toThrow(/worker state y has 2 condition tags/);
    expect(() => meaningOfStage('no.such.state')).toThrow(/no state no.such.state/);
  });
});
