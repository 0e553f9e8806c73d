/**
 * Runs `fn` over `items` with at most `size` in flight: a slow item holds one slot, not a whole
 * batch. The first failure stops new items from starting and is rethrown once the in-flight
 * ones end; `done` counts the items that completed.
 */
export async function pool<T>(items: readonly T[], size: number, fn: (x: T) => Promise<void>): Promise<{ done: number }> {
  let next = 0;
  let done = 0;
  let failed: { err: unknown } | null = null;
  const lane = async () => {
    while (failed === null && next < items.length) {
      const x = items[next++]!;
      try {
        await fn(x);
        done++;
      } catch (err) {
        failed ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
  if (failed !== null) throw (failed as { err: unknown }).err;
  return { done };
}
