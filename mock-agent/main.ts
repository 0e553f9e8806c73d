/**
 * Script entry of the mock agent (bin/mock-agent.js):
 *   node bin/mock-agent.js [--classic] [--scenario <file>] [--skip-trust]
 *                          [--permission-mode default|acceptEdits|plan|auto] [prompt]
 * Unknown flags are ignored, so a launcher can pass the mock the flags it passes Claude Code.
 */
import { parseArgs } from 'node:util';
import { HandError } from '../contract/errors.ts';
import { startMockAgent } from './run.ts';

const USAGE = `usage: mock-agent [--classic] [--scenario <file>] [--skip-trust] [--permission-mode <mode>] [prompt]

A scripted stand-in for Claude Code 2.1.332's terminal UI. Trigger words in a prompt:
MODE:ask MODE:bash MODE:slow MODE:hang MODE:silent MODE:crash MODE:error MODE:limit MODE:report <path>.
Environment: KH_MOCK_TICK_MS KH_MOCK_REPLY_MS KH_MOCK_SLOW_MS KH_MOCK_START_MS KH_MOCK_START_FILE KH_MOCK_EVENT_LOG KH_MOCK_STOP_HOOKS KH_MOCK_SUGGESTION KH_MOCK_RUN_BASH KH_MOCK_STREAM
KH_MOCK_SCENARIO (as --scenario) KH_MOCK_PERMISSION_MODE (as --permission-mode)
CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN HOME`;

const IGNORED_VALUE_FLAGS = ['model', 'settings', 'add-dir', 'append-system-prompt', 'session-id', 'resume', 'allowedTools', 'disallowedTools', 'mcp-config'];

const { values, positionals } = parseArgs({
  options: {
    classic: { type: 'boolean' },
    scenario: { type: 'string' },
    'skip-trust': { type: 'boolean' },
    'permission-mode': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    // Claude Code flags that take a value: accepted and ignored, so their values never read as a prompt.
    ...Object.fromEntries(IGNORED_VALUE_FLAGS.map((name) => [name, { type: 'string' as const }])),
  },
  allowPositionals: true,
  strict: false,
});

if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

try {
  const prompt = positionals.join(' ').trim();
  const code = await startMockAgent({
    classic: values.classic === true,
    skipTrust: values['skip-trust'] === true,
    ...(text(values.scenario) !== undefined && { scenario: text(values.scenario) }),
    ...(text(values['permission-mode']) !== undefined && { permissionMode: text(values['permission-mode']) }),
    ...(prompt && { prompt }),
  });
  process.exit(code);
} catch (err) {
  if (err instanceof HandError) {
    process.stderr.write(`mock-agent: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  throw err;
}
