/*
 * The loggers the benchmarks give our services (the LoggerService shape they call): what a
 * benchmark prints is its figures, so the services' own info and debug lines never show.
 */

/** Logs nothing at all: for the benchmarks whose every line is a figure. */
const silentLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/** Logs warnings and errors only, so a run that goes wrong says why. */
const quietLogger = {
  debug() {},
  info() {},
  warn: console.warn,
  error: console.error,
  child: () => quietLogger,
};

module.exports = { silentLogger, quietLogger };
