/**
 * For tests of what a start loads: a `--import` module that registers a resolve hook writing
 * every specifier Node resolves to a log file (one per line).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function importRecorder(dir: string): { importFlag: string[]; imported(): string[] } {
  const log = join(dir, 'imports.txt');
  writeFileSync(log, '');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
  return next(specifier, context);
}
`);
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
  return { importFlag: ['--import', register], imported: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}
