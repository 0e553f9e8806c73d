/** Prefix of the one line a daemon that refused to start prints to its stdout (daemon.out); cli/client.ts reads it back. */
export const REFUSAL_LINE = 'KINGSHAND-REFUSAL ';
