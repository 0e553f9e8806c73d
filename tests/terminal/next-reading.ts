/**
 * The next reading a feed delivers that `accept`s, among those pushed to `got` after the call:
 * bounded, and the message says what was awaited and what came instead.
 */
import type { ScreenReading } from '../../io/screen/index.ts';

export function nextReading<R extends ScreenReading>(got: R[], accept: (r: R) => boolean, what: string, timeoutMs = 15_000): Promise<R> {
  const from = got.length;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      const hit = got.slice(from).find(accept);
      if (hit) return resolve(hit);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; readings since: ${got.slice(from).map((r) => r.state).join(', ')}`));
      setTimeout(look, 10);
    };
    look();
  });
}
