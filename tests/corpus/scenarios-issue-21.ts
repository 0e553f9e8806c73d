/**
 * The situations issue 21 (item 3) asks the corpus to hold beyond the first scenarios: a
 * sub-agent running and finished, an API error while retrying and after the retries, a usage
 * limit, compaction in progress and after, a two-question form, first-run onboarding, and a
 * finished turn and a blocked dialog at 80×24 and 200×50. Each is driven by the fake model API
 * (io/fake-model/anthropic.ts); a witness the scenario itself caused proves the screen.
 */
import type { ScriptItem } from '../../io/fake-model/anthropic.ts';
import { contains, INTERRUPT, settle, submit, waitIdle, type Scenario } from './scenarios.ts';

/** The sub-agent tool: `Task` in older releases, `Agent` in newer ones (whichever is offered). */
const SUBAGENT_CALL: ScriptItem = {
  kind: 'tool_use', name: 'Task', nameFrom: ['Agent', 'Task'], text: 'I will ask a sub-agent.',
  input: { description: 'Survey the repository', prompt: 'Look around the repository and say what is there.', subagent_type: 'general-purpose' },
};

type Pane = Parameters<Scenario['drive']>[0];
type Fake = Parameters<Scenario['drive']>[1];

/** From the first box, a prompt whose turn starts a sub-agent (SUBAGENT_CALL); `then` is the model's next reply. */
async function startSubagent(pane: Pane, fake: Fake, then: ScriptItem): Promise<void> {
  await waitIdle(pane, 'first box');
  fake.queue([SUBAGENT_CALL, then]);
  await submit(pane, 'survey the repo with a helper');
}

const times = (n: number, item: ScriptItem): ScriptItem[] => Array.from({ length: n }, () => item);

/** A server error the client retries; `retry-after` holds each wait (seconds). */
const serverError = (status: number, retryAfter: number): ScriptItem => ({
  kind: 'error', status, errorType: status === 529 ? 'overloaded_error' : 'api_error',
  message: status === 529 ? 'Overloaded' : 'Internal server error', headers: { 'retry-after': String(retryAfter) },
});

/** A subscription's usage limit as the API reports it: a 429 with the unified limiter's verdict. */
function usageLimit(): ScriptItem {
  const reset = String(Math.floor(Date.now() / 1000) + 3 * 3600);
  return {
    kind: 'error', status: 429, errorType: 'rate_limit_error', message: 'Claude AI usage limit reached|' + reset,
    headers: {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': reset,
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': reset,
      'retry-after': '0',
    },
  };
}

const TWO_QUESTIONS = {
  questions: [
    { question: 'Which language should the parser use?', header: 'Language', multiSelect: false, options: [{ label: 'TypeScript', description: 'Typed' }, { label: 'Python', description: 'Quick' }] },
    { question: 'Which test runner?', header: 'Runner', multiSelect: false, options: [{ label: 'Vitest', description: 'Fast' }, { label: 'Jest', description: 'Common' }] },
  ],
};

/** The two-question form up at its first question. */
async function firstOfTwoQuestions(pane: Pane, fake: Fake): Promise<void> {
  await waitIdle(pane, 'first box');
  fake.queue([{ kind: 'tool_use', name: 'AskUserQuestion', text: 'Two questions first.', input: TWO_QUESTIONS }]);
  await submit(pane, 'ask me two things');
  await settle(pane, 'the first of two questions', contains(/Which language should the parser use\?/));
}

/** The form at its second question: the first option is preselected, Enter answers the first. */
async function secondOfTwoQuestions(pane: Pane, fake: Fake): Promise<void> {
  await firstOfTwoQuestions(pane, fake);
  await pane.keys('Enter');
  await settle(pane, 'the second of two questions', contains(/Which test runner\?/));
}

/** The witness of the finished greeting turn: a reply bullet and an idle box. */
const REPLY = contains(/^[●⏺] \S/m);

async function finishedTurn(pane: Pane, size: string) {
  await waitIdle(pane, `first box in a ${size} pane`);
  await submit(pane, 'say hello please');
  await waitIdle(pane, `the finished turn in ${size}`, REPLY);
  return { state: 'idle' as const, says: 'a finished turn, the empty box waiting for the next prompt' };
}

async function permission(pane: Pane, size: string) {
  await waitIdle(pane, `first box in a ${size} pane`);
  await submit(pane, 'MODE:bash make a file');
  await settle(pane, `the Bash permission dialog in ${size}`, contains(/Do you want to proceed\?/));
  return { state: 'blocked' as const, reason: 'permission', says: 'a permission dialog asking to run a command' };
}

/**
 * Turns enough to compact: some releases refuse one exchange ("Not enough messages to compact").
 */
async function conversation(pane: Pane): Promise<void> {
  await waitIdle(pane, 'first box');
  for (const [i, prompt] of ['say hello please', 'and once more please', 'and a third time please'].entries()) {
    await submit(pane, prompt);
    // the reply below this turn's echoed prompt
    await waitIdle(pane, `the finished turn ${i + 1} of 3`, (s) => s.slice(s.lastIndexOf(prompt)).includes('This is the fake model'));
  }
}

export const ISSUE_21_SCENARIOS: readonly Scenario[] = [
  {
    name: 'subagent-running',
    setup: {},
    async drive(pane, fake) {
      await startSubagent(pane, fake, { kind: 'hang', text: 'Looking around the repository now.' });
      await settle(pane, 'the sub-agent running', (s) => /Survey the repository/.test(s) && INTERRUPT.test(s));
      return { state: 'working', says: 'a sub-agent is running inside the turn' };
    },
  },
  {
    name: 'subagent-finished',
    setup: {},
    async drive(pane, fake) {
      await startSubagent(pane, fake, { kind: 'text', text: 'The repository holds one empty commit.' });
      // Older releases wait for the sub-agent inside the turn (its result closes it: "The tool
      // finished"); newer ones background it and note it finished ("Agent … finished").
      await waitIdle(pane, 'the turn after the sub-agent', contains(/The tool finished|Agent "Survey the repository" finished/));
      return { state: 'idle', promptBox: '', says: 'the sub-agent finished and the turn closed; the empty box waits' };
    },
  },
  {
    name: 'api-retrying',
    setup: {},
    async drive(pane, fake) {
      await waitIdle(pane, 'first box');
      // Short waits: older releases (2.1.50) draw the retry line only after a few attempts.
      fake.queue(times(12, serverError(529, 3)));
      await submit(pane, 'say hello please');
      await settle(pane, 'the retry line', contains(/Retrying|attempt \d+/i));
      return { state: 'working', says: 'the API is overloaded and Claude Code is retrying' };
    },
  },
  {
    name: 'api-error-after-retries',
    setup: { env: { CLAUDE_CODE_MAX_RETRIES: '1' } },
    async drive(pane, fake) {
      await waitIdle(pane, 'first box');
      fake.queue(times(6, serverError(500, 0)));
      await submit(pane, 'say hello please');
      await waitIdle(pane, 'the turn ended in an API error', contains(/API Error/i));
      // the box shows a placeholder (`Resend your message to try again`): empty to a person
      return { state: 'idle', promptBox: '', agentError: true, says: 'the turn ended in an API error after the retries; the box waits' };
    },
  },
  {
    name: 'usage-limit',
    setup: { env: { CLAUDE_CODE_MAX_RETRIES: '1' } },
    async drive(pane, fake) {
      await waitIdle(pane, 'first box');
      fake.queue(times(6, usageLimit()));
      await submit(pane, 'say hello please');
      await waitIdle(pane, 'the usage-limit message', contains(/limit/i));
      // With API-key billing (all the fake API can offer) a release prints the limit as an API
      // error naming it; the subscriber's own limit panel needs a claude.ai account, not had here.
      return { state: 'idle', promptBox: '', agentError: true, says: 'the turn ended on a usage limit; the box waits' };
    },
  },
  {
    name: 'compacting',
    setup: {},
    async drive(pane, fake) {
      await conversation(pane);
      fake.queue([{ kind: 'hang' }]);
      await submit(pane, '/compact');
      await settle(pane, 'compaction in progress', contains(/Compacting/i));
      return { state: 'working', says: 'the conversation is being compacted' };
    },
  },
  {
    name: 'compacted',
    setup: {},
    async drive(pane) {
      await conversation(pane);
      await submit(pane, '/compact');
      await waitIdle(pane, 'the compacted conversation', contains(/compacted/i));
      return { state: 'idle', promptBox: '', says: 'the conversation was compacted; the empty box waits' };
    },
  },
  {
    name: 'ask-two-questions',
    setup: {},
    async drive(pane, fake) {
      await firstOfTwoQuestions(pane, fake);
      return { state: 'blocked', reason: 'question', says: 'a form of two questions, the first one asked' };
    },
  },
  {
    name: 'ask-two-questions-second',
    setup: {},
    async drive(pane, fake) {
      await secondOfTwoQuestions(pane, fake);
      return { state: 'blocked', reason: 'question', says: 'a form of two questions, the first answered, the second asked' };
    },
  },
  {
    name: 'ask-two-questions-review',
    setup: {},
    async drive(pane, fake) {
      await secondOfTwoQuestions(pane, fake);
      await pane.keys('Enter');
      // both answered: the form asks to submit them (the answers listed, a submit choice)
      await settle(pane, 'the review of both answers', (s) => /Review your answers|Submit answers|Ready to submit/i.test(s) && !/Which test runner\?\s*\n\s*❯/.test(s));
      return { state: 'blocked', reason: 'question', says: 'a form of two questions, both answered, asking to submit' };
    },
  },
  {
    name: 'onboarding',
    setup: { onboarding: true, trusted: false },
    async drive(pane) {
      await pane.waitStable('the first-run onboarding screen', {
        quietMs: 1_000, timeoutMs: 40_000, accept: contains(/theme|text style|Let's get started/i),
      });
      return { state: 'blocked', reason: 'onboarding', says: 'the first-run onboarding asks for a theme' };
    },
  },
  { name: 'finished-turn-200x50', setup: { cols: 200, rows: 50 }, drive: (pane) => finishedTurn(pane, '200×50') },
  { name: 'permission-80x24', setup: { cols: 80, rows: 24 }, drive: (pane) => permission(pane, '80×24') },
  { name: 'permission-200x50', setup: { cols: 200, rows: 50 }, drive: (pane) => permission(pane, '200×50') },
];
