import { runCli } from './runCli';

// `model-manager list | head`: the reader went away; that is not an error.
process.stdout.on('error', err => {
  if ((err as NodeJS.ErrnoException).code === 'EPIPE')
    process.exit(process.exitCode ?? 0);
  throw err;
});

runCli(process.argv.slice(2), {
  stdout: t => process.stdout.write(t),
  stderr: t => process.stderr.write(t),
  cwd: process.cwd(),
}).then(
  code => {
    process.exitCode = code;
  },
  err => {
    process.stderr.write(`model-manager: ${err?.message ?? err}\n`);
    process.exitCode = 1;
  },
);
