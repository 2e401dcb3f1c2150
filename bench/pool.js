/**
 * Runs `fn(item, index)` over `items` with at most `limit` at once; resolves with the results in
 * the items' order (rejects at the first failure, as Promise.all does).
 */
async function pool(items, limit, fn) {
  let next = 0;
  const results = [];
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i], i);
      }
    }),
  );
  return results;
}

module.exports = { pool };
