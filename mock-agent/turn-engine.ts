/**
 * Plays one turn's steps against the app. Escape aborts the turn through `host.signal`; what the
 * interrupt then looks like follows reference §6.7: before any reply text the prompt goes back
 * into the box, mid-stream the partial reply stays with `⎿ Interrupted · …` under it.
 */
import type { Entry } from './layout-transcript.ts';
import type { Step } from './steps.ts';

export type PermissionAnswer = 'yes' | 'always' | 'auto' | 'no';

export interface TurnHost {
  readonly signal: AbortSignal;
  append(entry: Entry): void;
  replaceLast(entry: Entry): void;
  removeLast(): void;
  /** Tokens the spinner counter gains per tick (0 while stalled). */
  setTokenRate(perTick: number): void;
  /** Resolves when abort fires never; rejects with an AbortError on abort. */
  sleep(ms: number): Promise<void>;
  permissionNeeded(): boolean;
  askPermission(command: string, description: string): Promise<PermissionAnswer>;
  /** The chosen label, or null when the menu was cancelled. */
  askQuestion(step: Extract<Step, { kind: 'ask' }>): Promise<string | null>;
  /** Writes the file and returns its line count. */
  writeFile(path: string, content: string): number;
  /** Runs an approved shell command when the mock was asked to (KH_MOCK_RUN_BASH=1). */
  runCommand(command: string): void;
  /** Stop drawing anything at all (MODE:silent). */
  freeze(): void;
}

export type TurnOutcome =
  | { kind: 'done' }
  | { kind: 'error' }
  | { kind: 'interrupted'; outputShown: boolean }
  | { kind: 'exit'; code: number };

interface Streaming {
  text: string;
  startedAt: number;
  ms: number;
}

export function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** The words of a streamed reply that had arrived after `elapsed` of `ms`. */
export function streamedPart(s: Streaming, now: number): string {
  const words = s.text.split(' ');
  const fraction = s.ms <= 0 ? 1 : Math.min(1, (now - s.startedAt) / s.ms);
  return words.slice(0, Math.floor(words.length * fraction)).join(' ');
}

export async function runTurn(steps: readonly Step[], host: TurnHost): Promise<TurnOutcome> {
  let shown = 0; // transcript entries this turn added
  let streaming: Streaming | null = null;
  let answer = '';
  const append = (e: Entry) => {
    host.append(e);
    shown++;
  };
  try {
    for (const step of steps) {
      switch (step.kind) {
        case 'think':
          host.setTokenRate(2);
          await host.sleep(step.ms);
          break;
        case 'reply': {
          const text = step.text.replaceAll('{answer}', answer);
          host.setTokenRate(2);
          if (step.ms && step.ms > 0) {
            // The real program keeps the bullet empty while words stream in, then shows the text.
            append({ kind: 'reply', text: '' });
            streaming = { text, startedAt: performance.now(), ms: step.ms };
            await host.sleep(step.ms);
            streaming = null;
            host.replaceLast({ kind: 'reply', text });
          } else {
            append({ kind: 'reply', text });
          }
          break;
        }
        case 'bash': {
          const description = step.description ?? 'Run a shell command';
          if (host.permissionNeeded()) {
            append({ kind: 'tool', description: step.activity ?? description, command: step.command });
            const a = await host.askPermission(step.command, description);
            if (a === 'no') {
              host.replaceLast({ kind: 'did-not-run', command: step.command });
              append({ kind: 'interrupted' });
              return { kind: 'interrupted', outputShown: true };
            }
            host.replaceLast({ kind: 'ran', count: 1 });
          } else {
            append({ kind: 'ran', count: 1 });
          }
          host.runCommand(step.command);
          break;
        }
        case 'ask': {
          const label = await host.askQuestion(step);
          if (label === null) {
            append({ kind: 'interrupted' });
            return { kind: 'interrupted', outputShown: true };
          }
          answer = label;
          append({ kind: 'answered', question: step.question, answer: label });
          break;
        }
        case 'write': {
          const lines = host.writeFile(step.path, step.content ?? '# Report\n');
          append({ kind: 'write', path: step.path, lines });
          break;
        }
        case 'error':
          append({ kind: 'reply', text: step.text, tone: 'error' });
          return { kind: 'error' };
        case 'hang':
          host.setTokenRate(0);
          await host.sleep(Number.POSITIVE_INFINITY);
          break;
        case 'silent':
          host.freeze();
          await host.sleep(Number.POSITIVE_INFINITY);
          break;
        case 'exit':
          return { kind: 'exit', code: step.code };
      }
    }
    return { kind: 'done' };
  } catch (err) {
    if (!isAbort(err)) throw err;
    if (streaming) {
      const part = streamedPart(streaming, performance.now());
      if (part) {
        host.replaceLast({ kind: 'reply', text: part });
        append({ kind: 'interrupted' });
        return { kind: 'interrupted', outputShown: true };
      }
      host.removeLast();
      shown--;
    }
    if (shown === 0) return { kind: 'interrupted', outputShown: false };
    append({ kind: 'interrupted' });
    return { kind: 'interrupted', outputShown: true };
  }
}
