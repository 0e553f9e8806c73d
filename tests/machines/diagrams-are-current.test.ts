import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { visualizationFiles, renderDiagram } from '../../cli/commands/diagram.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'visualizations');

describe('committed diagrams are regenerated from the machines', () => {
  for (const [name, content] of Object.entries(visualizationFiles())) {
    it(`visualizations/${name} is current (regenerate with writeVisualizations)`, () => {
      expect(readFileSync(join(dir, name), 'utf8')).toBe(content);
    });
  }

  it('the worker diagram shows the Escape-before-/exit teardown and the stall edge', () => {
    const mmd = renderDiagram('worker', 'mermaid');
    expect(mmd).toContain('worker_teardown_begin --> worker_teardown_escaping : always [menuUp]');
    expect(mmd).toContain('worker_running_working --> worker_running_stalled : DEADLINE [deadlineReached]');
    // A running turn is interrupted before /exit, and ctrl-u is only ever a step towards /exit.
    expect(mmd).toContain('worker_teardown_checkingTurn --> worker_teardown_interrupting : always [turnRunning]');
    expect(mmd).toContain('worker_teardown_awaitingClear --> worker_teardown_exiting : SCREEN [boxCleared]');
    // A brief never taken up ends blocked (a person looks), never resting in confirming.
    expect(mmd).toContain('worker_briefing_confirming --> worker_briefing_blocked : DEADLINE [isDeadline]');
    expect(renderDiagram('worker', 'dot')).toMatch(/^digraph worker \{/);
    const json = JSON.parse(renderDiagram('all', 'json')) as { worker: { states: unknown[] }; fleet: { states: unknown[] } };
    expect(json.worker.states.length).toBeGreaterThan(20);
    expect(json.fleet.states.length).toBe(2);
  });
});
