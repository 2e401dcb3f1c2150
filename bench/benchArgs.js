/*
 * The command line as the benchmarks read it: options with a value (`--name value`) taken out of
 * argv first, then the size N as the one plain number left.
 */

/** Removes `name value` from argv and returns the value; `fallback` when the option is absent. */
function takeOption(argv, name, fallback) {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : fallback;
}

/** The size N: the first argument that is a plain number, else `fallback`. */
function sizeArg(argv, fallback) {
  return Number(argv.find(a => /^\d+$/.test(a)) ?? fallback);
}

module.exports = { takeOption, sizeArg };
