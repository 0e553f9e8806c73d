/**
 * Every method the daemon serves, named once. The socket server dispatches only these names
 * (looked up in a Map, so `__proto__` or `toString` is an unknown method, never a prototype's
 * function), the CLI and the MCP server call them, and a test checks that each has a face.
 */
export const METHODS = [
  // the fleet's core
  'ping', 'shutdown', 'annex', 'projects', 'projectSet', 'dispatch', 'status', 'wait', 'watch', 'read', 'send', 'keys', 'answer', 'stop',
  // the gates and what follows a worker's turn
  'land', 'approve', 'reject', 'landings', 'discard', 'relaunch',
  // the second witness, the review page, the Hand's read-only views
  'hook', 'review', 'survey', 'audience',
  // work that outlives a conversation
  'backlog.add', 'backlog.list', 'backlog.ready', 'backlog.show', 'backlog.start', 'backlog.hold', 'backlog.unhold', 'backlog.block', 'backlog.done', 'backlog.reopen', 'backlog.drop',
  'decisions', 'decide',
  'afk.on', 'afk.off', 'afk.digest', 'afk.status', 'journal',
  'notify.add', 'notify.list', 'notify.remove', 'notify.test', 'notify.log',
  'usage', 'usage.source', 'work.summary',
] as const;

export type MethodName = (typeof METHODS)[number];

/**
 * The methods anyone who reaches the socket may call: `ping` says only that a daemon answers,
 * and `hook` speaks for one worker by that worker's own capability. Every other method acts for,
 * or reads for, the person and needs the daemon's authority key (issue 24 item 1): a method
 * added later is the person's unless it is named here.
 */
export const OPEN_METHODS: readonly MethodName[] = ['ping', 'hook'];

export function isOpenMethod(name: unknown): boolean {
  return typeof name === 'string' && (OPEN_METHODS as readonly string[]).includes(name);
}

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && (METHODS as readonly string[]).includes(name);
}
