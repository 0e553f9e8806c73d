/**
 * The gate run reader's rules (workflow §6.2), on decoded documents: parked is the presence of
 * run.awaiting_agent (whatever its value) or of a top-level gate — never counts or statuses;
 * findings come from the first present location; a run on another branch is no-run/wrong-branch.
 */
import { describe, expect, it } from 'vitest';
import { readGateDocument } from '../../io/gate/gate-run.ts';

const run = (extra: Record<string, unknown> = {}) => ({ id: 'r1', branch: 'worktree-a', status: 'running', ...extra });

describe('gate run reader', () => {
  it('parked = awaiting_agent present, whatever its value', () => {
    expect(readGateDocument({ run: run({ awaiting_agent: '' }) }).isParked).toBe(true);
    expect(readGateDocument({ run: run({ awaiting_agent: null }) }).isParked).toBe(true);
    expect(readGateDocument({ run: run({ findings: '3 awaiting' }) }).isParked).toBe(false);
  });

  it('a top-level gate parks, as a scalar step name or an object; without a run it is a gate-response', () => {
    expect(readGateDocument({ run: run(), gate: 'review' })).toMatchObject({ isParked: true, parkedOn: 'review' });
    expect(readGateDocument({ gate: { step: 'ci', findings: [] } })).toMatchObject({ status: 'has-run', signal: 'gate-response', isParked: true, parkedOn: 'ci' });
  });

  it('findings from the first present location: gate.findings, then findings, then run.findings as a table', () => {
    const f = (id: string) => [{ id, severity: 'low', file: 'a', line: 1, action: 'auto-fix', description: 'd' }];
    expect(readGateDocument({ run: run({ findings: f('R') }), findings: f('T'), gate: { step: 'x', findings: f('G') } }).findings[0]!.id).toBe('G');
    expect(readGateDocument({ run: run({ findings: f('R') }), findings: f('T') }).findings[0]!.id).toBe('T');
    expect(readGateDocument({ run: run({ findings: f('R') }) }).findings[0]!.id).toBe('R');
    // A summary string is carried, never computed from.
    const s = readGateDocument({ run: run({ findings: '1 awaiting, 1 auto-fix' }) });
    expect(s).toMatchObject({ findingsSummary: '1 awaiting, 1 auto-fix', findings: [] });
  });

  it("another branch's run is no-run (wrong-branch); no run reported is no-run; junk is unreadable", () => {
    expect(readGateDocument({ run: run() }, { branch: 'worktree-b' })).toMatchObject({ status: 'no-run', signal: 'wrong-branch' });
    expect(readGateDocument({ error: 'no run found' })).toMatchObject({ status: 'no-run', signal: 'no-run-reported' });
    expect(readGateDocument('text')).toMatchObject({ status: 'unreadable', signal: 'not-a-gate-response' });
  });
});
