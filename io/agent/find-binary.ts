/**
 * Where every agent CLI's binary is found, in one order: the one a variable of the daemon's
 * environment chooses (an absolute path that exists: another build, for the cross-version tests),
 * the version pinned in kingshand's own node_modules, then the PATH of that environment.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { KINGSHAND_ROOT } from '../root.ts';

export function findAgentBinary(program: string, chosenVar: string, env: Record<string, string | undefined>, root = KINGSHAND_ROOT): string | null {
  const chosen = env[chosenVar];
  if (chosen && isAbsolute(chosen) && existsSync(chosen)) return chosen;
  const local = join(root, 'node_modules', '.bin', program);
  if (existsSync(local)) return local;
  for (const dir of (env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, program))) return join(dir, program);
  }
  return null;
}
