/**
 * The memory budget (workflow §4.3): the two curated files loaded into every Hand session,
 * measured in estimated tokens (characters / 4, rounded up; an estimate, not a tokenizer)
 * against a budget in memory/budget (one positive integer; absent = 7500). The budget is a
 * signal, never a gate: OVER asks for the chronicle skill. A malformed budget is an error
 * naming the file, never silently the default.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import { DEFAULT_MEMORY_BUDGET, type WorkspacePaths } from './layout.ts';

export interface MemoryReport {
  estimator: 'chars/4';
  budget: number;
  files: { path: string; present: boolean; chars: number; tokens: number }[];
  total: number;
  over: boolean;
  overBy: number;
}

export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export function readBudget(p: WorkspacePaths): number {
  if (!existsSync(p.budget)) return DEFAULT_MEMORY_BUDGET;
  if (statSync(p.budget).isDirectory()) throw new UsageError('bad-memory-budget', `${p.budget} is a directory; it must be a file holding one positive whole number (e.g. 7500).`);
  const text = readFileSync(p.budget, 'utf8').replace(/\r\n/g, '\n');
  if (!/^[1-9]\d{0,8}\n?$/.test(text)) {
    throw new UsageError('bad-memory-budget', `${p.budget} must hold one positive whole number (e.g. 7500); found ${JSON.stringify(text.slice(0, 40))}.`, { path: p.budget });
  }
  return Number(text.trim());
}

export function memoryReport(p: WorkspacePaths): MemoryReport {
  const budget = readBudget(p);
  const files = [p.king, p.learnings].map((f) => {
    if (!existsSync(f)) return { path: relative(p.dir, f), present: false, chars: 0, tokens: 0 };
    if (statSync(f).isDirectory()) throw new UsageError('bad-memory-file', `${f} is a directory where a memory file should be.`);
    const text = readFileSync(f, 'utf8');
    return { path: relative(p.dir, f), present: true, chars: text.length, tokens: estimateTokens(text) };
  });
  const total = files.reduce((n, f) => n + f.tokens, 0);
  return { estimator: 'chars/4', budget, files, total, over: total > budget, overBy: Math.max(0, total - budget) };
}
