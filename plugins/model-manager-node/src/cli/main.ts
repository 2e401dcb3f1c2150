import { runCli } from './runCli';

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
