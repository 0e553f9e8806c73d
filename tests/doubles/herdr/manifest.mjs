// herdr's screen-manifest engine (reference §2.2) and a subset of the bundled Claude manifest
// 2026.08.21.1 (§2.4): the rules that read the screen. The OSC title/progress rules, the /btw
// overlay, background-work rules, the transcript viewer and the model picker are left out
// (docs/herdr-double.md). Matching rules: highest priority wins, ties go to file order, no match
// is `idle` by fallback for a known agent.

const SPIN = '[\\u{002A}\\u{00B7}\\u{2722}\\u{2736}\\u{273B}\\u{273D}]';
const c = (...needles) => ({ contains: needles });
const lr = (...patterns) => ({ line_regex: patterns });

export const CLAUDE_RULES = [
  {
    id: 'live_turn_working', state: 'working', priority: 970, region: ['bottom_non_empty_lines', 12], visible: 'working',
    gate: { any: [lr('^\\s*[⏸⏵].*esc to interrupt(?:\\s|·|$)'), lr(`^\\s*${SPIN}\\s+\\S.*…(?:\\s+\\(\\d+[smh](?:\\s|·)|\\s*$)`)] },
  },
  {
    id: 'live_blocked_form', state: 'blocked', priority: 980, region: ['after_last_horizontal_rule'], visible: 'blocker',
    gate: {
      ...c('esc to cancel'),
      any: [
        c('enter to confirm'),
        { ...c('enter to select'), any: [c('tab/arrow keys to navigate'), c('arrow keys to navigate'), c('arrows to navigate'), c('↑/↓ to navigate'), c('↑↓ to navigate')] },
      ],
    },
  },
  {
    id: 'dynamic_workflow_prompt', state: 'blocked', priority: 980, region: ['whole_recent'], visible: 'blocker',
    gate: c('run a dynamic workflow?', 'esc to cancel'),
  },
  {
    id: 'live_prompt_box', state: 'idle', priority: 950, region: ['prompt_box_body'], visible: 'idle',
    gate: { ...lr('^\\s*❯'), not: [c('enter to select'), c('esc to cancel'), c('tab/arrow keys'), c('arrow keys to navigate'), c('↑/↓ to navigate')] },
  },
  {
    id: 'bash_permission_prompt', state: 'blocked', priority: 850, region: ['whole_recent'], visible: 'blocker',
    gate: {
      ...c('do you want to proceed?'),
      all: [{ any: [lr('(?i)^\\s*❯?\\s*yes\\b'), lr('(?i)^\\s*1\\.\\s*yes\\b'), lr('(?i)^\\s*2\\.\\s*no\\b')] }],
      any: [c('bash command'), c('bash('), c('contains expansion'), c('tab to amend'), c('ctrl+e to explain')],
    },
  },
  {
    id: 'generic_permission_prompt', state: 'blocked', priority: 840, region: ['after_last_horizontal_rule'], visible: 'blocker',
    gate: {
      ...c('do you want to proceed?', 'esc to cancel'),
      all: [{ any: [lr('(?i)^\\s*❯?\\s*1\\.\\s*yes\\b'), lr('(?i)^\\s*2\\.\\s*yes\\b'), lr('(?i)^\\s*2\\.\\s*no\\b'), lr('(?i)^\\s*3\\.\\s*no\\b')] }],
    },
  },
  {
    id: 'legacy_no_prompt_blocker', state: 'blocked', priority: 300, region: ['whole_recent'],
    gate: {
      any: [
        { ...c('do you want to'), any: [c('yes'), c('❯')] },
        { ...c('would you like to'), any: [c('yes'), c('❯')] },
        c('waiting for permission'), c('do you want to allow this connection?'), c('tab to amend'), c('ctrl+e to explain'),
        c('do you want to proceed?', 'esc to cancel'), c('review your answers'), c('skip interview and plan immediately'),
      ],
      not: [{ regex: ['(?m)^\\s*❯\\s*$'] }],
    },
  },
];

/** Rust regex → JS: inline (?i)/(?m) become flags; \x{HHHH} was already written as \u{HHHH}. */
const compiled = new Map();
function toRegExp(pattern) {
  let re = compiled.get(pattern);
  if (!re) {
    let flags = 'u';
    let source = pattern;
    for (let m; (m = /^\(\?([im]+)\)/.exec(source)); source = source.slice(m[0].length)) flags += m[1];
    re = new RegExp(source, flags);
    compiled.set(pattern, re);
  }
  return re;
}

function gateMatches(gate, text, lines) {
  const lower = text.toLowerCase();
  if (gate.contains && !gate.contains.every((n) => lower.includes(n.toLowerCase()))) return false;
  if (gate.regex && !gate.regex.every((p) => toRegExp(p).test(text))) return false;
  if (gate.line_regex && !gate.line_regex.every((p) => lines.some((l) => toRegExp(p).test(l)))) return false;
  if (gate.all && !gate.all.every((g) => gateMatches(g, text, lines))) return false;
  if (gate.any && !gate.any.some((g) => gateMatches(g, text, lines))) return false;
  if (gate.not && gate.not.some((g) => gateMatches(g, text, lines))) return false;
  return true;
}

/** Horizontal rule: a line that (trimmed) starts with ─; all ─, or a run of ≥3 then a label. */
function isRule(line) {
  const t = line.trim();
  const run = /^─+/.exec(t);
  return Boolean(run) && (run[0].length === t.length || run[0].length >= 3);
}

function region(lines, [kind, n]) {
  const rules = lines.map((l, i) => (isRule(l) ? i : -1)).filter((i) => i >= 0);
  switch (kind) {
    case 'whole_recent':
      return lines;
    case 'bottom_non_empty_lines': {
      let seen = 0;
      for (let i = lines.length - 1; i >= 0; i--) {
        if (lines[i].trim() && ++seen === n) return lines.slice(i);
      }
      return lines;
    }
    case 'after_last_horizontal_rule':
      return rules.length ? lines.slice(rules[rules.length - 1] + 1) : lines;
    case 'prompt_box_body': {
      if (rules.length < 2) return [];
      const top = rules[rules.length - 2];
      return lines.slice(top + 1, rules[rules.length - 1]);
    }
    default:
      throw new Error(`region ${kind} is not implemented by the double`);
  }
}

/** Classifies the detection snapshot rows: { state, rule, visible } (rule null = fallback). */
export function classify(rows, rules = CLAUDE_RULES) {
  let best = null;
  for (const rule of rules) {
    const lines = region(rows, rule.region);
    const text = lines.length ? `${lines.join('\n')}\n` : '';
    if (!gateMatches(rule.gate, text, lines)) continue;
    if (!best || rule.priority > best.priority) best = rule;
  }
  return best ? { state: best.state, rule: best.id, visible: best.visible ?? null } : { state: 'idle', rule: null, visible: null };
}
