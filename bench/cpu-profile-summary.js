#!/usr/bin/env node
/*
 * Sums a V8 .cpuprofile (node --cpu-prof, e.g. from `node bench/ingestion.js --cpu-prof DIR`) by
 * self time: per package (node_modules) or workspace folder, then per function.
 *
 *   node bench/cpu-profile-summary.js FILE.cpuprofile
 */
const fs = require('fs');

const p = JSON.parse(fs.readFileSync(process.argv[2]));
const byId = new Map(p.nodes.map(n => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas;
const total = dt.reduce((a, b) => a + b, 0);
for (let i = 0; i < p.samples.length; i++) {
  const n = byId.get(p.samples[i]);
  self.set(n, (self.get(n) || 0) + dt[i]);
}
const fn = new Map();
const file = new Map();
for (const [n, t] of self) {
  const cf = n.callFrame;
  const k = `${cf.functionName || '(anon)'} ${cf.url
    .replace(/.*node_modules\//, '')
    .slice(0, 90)}:${cf.lineNumber}`;
  fn.set(k, (fn.get(k) || 0) + t);
  let f = cf.url.replace(/.*node_modules\//, '');
  const m = /^(@[^/]+\/[^/]+|[^/]+)/.exec(f);
  f = cf.url.includes('node_modules')
    ? m[1]
    : cf.url.includes('/work/wt-ingest')
    ? cf.url.replace('/work/wt-ingest/', '').split('/').slice(0, 2).join('/')
    : cf.url || cf.functionName;
  file.set(f, (file.get(f) || 0) + t);
}
const top = (m, k) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(
      ([a, t]) =>
        `${(t / 1000).toFixed(0).padStart(7)} ms ${((100 * t) / total)
          .toFixed(1)
          .padStart(5)}%  ${a}`,
    )
    .join('\n');
console.log('total', (total / 1e6).toFixed(1), 's');
console.log(top(file, 25));
console.log('---');
console.log(top(fn, 40));
