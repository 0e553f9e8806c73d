/**
 * PATH on a far host, for the agent a worker starts there and for every check that asks whether
 * it is there (so a check and a launch find the same program): the account's own ~/.local/bin
 * first (where a per-user install puts claude), then the system's.
 */
export function farPath(home: string): string {
  return `${home.replace(/\/+$/, '')}/.local/bin:/usr/local/bin:/usr/bin:/bin`;
}
