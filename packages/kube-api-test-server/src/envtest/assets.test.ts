import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envtestAvailability } from './assets';

describe('whether the real kube-apiserver suites run', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envtest-assets-'));
  const full = path.join(dir, 'full');
  const noEtcd = path.join(dir, 'no-etcd');
  beforeAll(() => {
    for (const d of [full, noEtcd]) fs.mkdirSync(d);
    for (const f of [
      path.join(full, 'kube-apiserver'),
      path.join(full, 'etcd'),
      path.join(noEtcd, 'kube-apiserver'),
    ])
      fs.writeFileSync(f, '#!/bin/sh\n', { mode: 0o755 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    {
      rule: 'no KUBEBUILDER_ASSETS outside CI: skip, saying how to get them',
      env: {},
      expected: {
        run: false,
        reason: expect.stringContaining('scripts/envtest-assets.sh'),
      },
    },
    {
      rule: 'a folder without etcd outside CI: skip, naming what is missing',
      env: { KUBEBUILDER_ASSETS: noEtcd },
      expected: {
        run: false,
        reason: expect.stringContaining('has no executable etcd'),
      },
    },
    {
      rule: 'both binaries: run',
      env: { KUBEBUILDER_ASSETS: full, CI: 'true' },
      expected: {
        run: true,
        assets: {
          kubeApiserver: path.join(full, 'kube-apiserver'),
          etcd: path.join(full, 'etcd'),
        },
      },
    },
  ])('$rule', ({ env, expected }) => {
    expect(envtestAvailability(env)).toEqual(expected);
  });

  it.each([
    { rule: 'no KUBEBUILDER_ASSETS in CI: fail', env: { CI: 'true' } },
    {
      rule: 'a folder without etcd in CI: fail',
      env: { CI: 'true', KUBEBUILDER_ASSETS: noEtcd },
    },
  ])('$rule', ({ env }) => {
    expect(() => envtestAvailability(env)).toThrow(
      /The real kube-apiserver suites must run in CI/,
    );
  });
});
