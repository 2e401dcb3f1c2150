// Not a package: linted as a Node.js program with the packages' rules (eslint.repo.js).
module.exports =
  require('@backstage/cli/config/eslint-factory').createConfigForRole(
    __dirname,
    'cli',
    { ...require('../eslint.repo'), env: { node: true } },
  );
