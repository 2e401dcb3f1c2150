/*
 * Preload for the backend (`node bench/ingestion.js --require bench/sql-profile.js`): times every
 * better-sqlite3 statement (in-memory SQLite) and writes the 40 costliest SQL texts, with their
 * total time and count, to $SQLPROF_OUT (default /tmp/sqlprof.txt) every 10 s and on exit.
 */
const Database = require('better-sqlite3');

const Statement = Object.getPrototypeOf(
  new Database(':memory:').prepare('select 1'),
);
const stats = new Map();
for (const m of ['all', 'run', 'get', 'iterate']) {
  const orig = Statement[m];
  Statement[m] = function timed(...a) {
    const t0 = process.hrtime.bigint();
    try {
      return orig.apply(this, a);
    } finally {
      const sql = this.source
        .replace(/\?(, ?\?)+/g, '?,..')
        .replace(/\s+/g, ' ')
        .slice(0, 220);
      const s = stats.get(sql) || { n: 0, ms: 0 };
      s.n++;
      s.ms += Number(process.hrtime.bigint() - t0) / 1e6;
      stats.set(sql, s);
    }
  };
}
const dump = () => {
  const rows = [...stats]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 40)
    .map(
      ([sql, s]) =>
        `${s.ms.toFixed(0).padStart(8)} ms ${String(s.n).padStart(8)}x  ${sql}`,
    );
  require('fs').writeFileSync(
    process.env.SQLPROF_OUT || '/tmp/sqlprof.txt',
    `${rows.join('\n')}\n`,
  );
};
setInterval(dump, 10000).unref();
process.on('exit', dump);
