/**
 * The certificates a local kube-apiserver needs, made with openssl (no network): a CA, a serving
 * certificate for 127.0.0.1/localhost signed by it, and the service-account key pair
 * (kube-apiserver refuses to start without --service-account-key-file and
 * --service-account-signing-key-file).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type EnvtestPki = {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  saKey: string;
  saPub: string;
  /** The CA certificate in PEM, for clients that verify the server. */
  caPem: string;
};

function openssl(args: string[], cwd: string) {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function makePki(dir: string): EnvtestPki {
  const f = (name: string) => path.join(dir, name);
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=model-manager-envtest-ca',
      '-keyout',
      f('ca.key'),
      '-out',
      f('ca.crt'),
    ],
    dir,
  );
  fs.writeFileSync(
    f('serving.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=kube-apiserver',
      '-keyout',
      f('serving.key'),
      '-out',
      f('serving.csr'),
    ],
    dir,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      f('serving.csr'),
      '-CA',
      f('ca.crt'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      f('serving.ext'),
      '-out',
      f('serving.crt'),
    ],
    dir,
  );
  openssl(['genpkey', '-algorithm', 'RSA', '-out', f('sa.key')], dir);
  openssl(['pkey', '-in', f('sa.key'), '-pubout', '-out', f('sa.pub')], dir);
  return {
    caCert: f('ca.crt'),
    caKey: f('ca.key'),
    servingCert: f('serving.crt'),
    servingKey: f('serving.key'),
    saKey: f('sa.key'),
    saPub: f('sa.pub'),
    caPem: fs.readFileSync(f('ca.crt'), 'utf8'),
  };
}
