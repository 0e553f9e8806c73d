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

export function isMethod(name: unknown): name is MethodName {
  return typeof name === 'string' && (METHODS as readonly string[]).includes(name);
}
