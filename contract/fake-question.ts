/**
 * The one question every fake asks: the mock agent's menu, the fake model APIs' ask-user tool
 * input and the calibration kits' expectation. One value, so a test or a calibration quotes the
 * same question whichever fake drew it (it lives in contract/ because the mock agent and io/ both
 * read it).
 */
export const FAKE_QUESTION = {
  header: 'Database',
  question: 'Which database should the fake project use?',
  options: [
    { label: 'SQLite', description: 'Single file, zero setup' },
    { label: 'Postgres', description: 'Full server, more features' },
    { label: 'None', description: 'Keep everything in memory' },
  ],
} as const;

/** Its first two choices: what Gemini CLI's fake offers and every calibration kit expects to see. */
export const FAKE_QUESTION_TWO_CHOICES = FAKE_QUESTION.options.slice(0, 2);
