// A throwaway PKI for the protocol tests of server/signing/pki, made by the openssl CLI so that the code
// under test issues none of it: a root, an issuing CA under it, and under that a signer (with an OCSP URL
// in its authority information access), a time-stamping certificate (critical EKU timeStamping) and a
// delegated OCSP responder (EKU OCSPSigning, ocsp-nocheck). Also a local HTTP server for the clients.
// With `tsaOcspUrl`, the time-stamping certificate names an OCSP responder too (section tsa_ocsp).
import { execFile } from 'node:child_process';
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CertifiedKey } from '../../server/signing/pki/types.ts';

export const run = promisify(execFile);

export type TestCertificate = CertifiedKey & { pem: string; file: string; keyFile: string };

export type TestPki = {
  dir: string;
  root: TestCertificate;
  ca: TestCertificate;
  signer: TestCertificate;
  tsa: TestCertificate;
  ocsp: TestCertificate;
  /** A file with the issuing CA's and the root's certificates. */
  chainFile: string;
};

const EXTENSIONS = (ocspUrl: string, tsaOcspUrl: string) => `
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid

[signer]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:${ocspUrl}

[tsa]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid

[tsa_ocsp]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:${tsaOcspUrl}

[ocsp]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = OCSPSigning
1.3.6.1.5.5.7.48.1.5 = ASN1:NULL
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

/**
 * Makes the PKI in `dir`. `ocspUrl` goes into the signer's authority information access, `tsaOcspUrl` (if
 * given) into the time-stamping certificate's. The issuing CA's
 * serial has its top bit set (so its INTEGER carries a leading zero byte), the signer's starts with a zero
 * digit (0ABC1234) and its name has non-ASCII letters.
 */
export async function makeTestPki(
  dir: string,
  { ocspUrl, tsaOcspUrl }: { ocspUrl: string; tsaOcspUrl?: string },
): Promise<TestPki> {
  const file = (name: string) => path.join(dir, name);
  await writeFile(file('extensions.cnf'), EXTENSIONS(ocspUrl, tsaOcspUrl ?? ocspUrl));
  const names = ['root', 'ca', 'signer', 'tsa', 'ocsp'] as const;
  await Promise.all(
    names.map((name) =>
      run('openssl', [
        'genpkey',
        '-algorithm',
        'RSA',
        '-pkeyopt',
        'rsa_keygen_bits:2048',
        '-out',
        file(`${name}.key`),
      ]),
    ),
  );
  await run('openssl', [
    ...['req', '-x509', '-new', '-key', file('root.key'), '-out', file('root.pem'), '-days', '3650'],
    ...['-subj', '/C=BE/O=Paraph Tests/CN=Paraph Test Root', '-sha256'],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  ]);
  const issue = async (name: string, subject: string, issuer: string, section: string, serialHex: string) => {
    await run('openssl', [
      'req',
      '-new',
      '-key',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
      '-utf8',
      '-subj',
      subject,
    ]);
    await run('openssl', [
      ...[
        'x509',
        '-req',
        '-in',
        file(`${name}.csr`),
        '-CA',
        file(`${issuer}.pem`),
        '-CAkey',
        file(`${issuer}.key`),
      ],
      ...['-set_serial', `0x${serialHex}`, '-days', '825', '-sha256', '-out', file(`${name}.pem`)],
      ...['-extfile', file('extensions.cnf'), '-extensions', section],
    ]);
  };
  await issue('ca', '/C=BE/O=Paraph Tests/CN=Paraph Test Issuing CA', 'root', 'ca', 'A1B2C3D4E5F60718');
  await Promise.all([
    issue('signer', '/C=BE/O=Paraph Tests/CN=Zoë Ångström', 'ca', 'signer', '0ABC1234'),
    issue('tsa', '/C=BE/O=Paraph Tests/CN=Paraph Test TSA', 'ca', tsaOcspUrl ? 'tsa_ocsp' : 'tsa', '1002'),
    issue('ocsp', '/C=BE/O=Paraph Tests/CN=Paraph Test OCSP Responder', 'ca', 'ocsp', '1003'),
  ]);
  const load = async (name: string, chain: readonly Uint8Array[]): Promise<TestCertificate> => {
    const pem = await readFile(file(`${name}.pem`), 'utf8');
    const privateKey: KeyObject = createPrivateKey(await readFile(file(`${name}.key`), 'utf8'));
    return {
      pem,
      file: file(`${name}.pem`),
      keyFile: file(`${name}.key`),
      certificate: new Uint8Array(new X509Certificate(pem).raw),
      privateKey,
      chain,
    };
  };
  const root = await load('root', []);
  const ca = await load('ca', [root.certificate]);
  const chain = [ca.certificate, root.certificate];
  const pki: TestPki = {
    dir,
    root,
    ca,
    signer: await load('signer', chain),
    tsa: await load('tsa', chain),
    ocsp: await load('ocsp', chain),
    chainFile: file('chain.pem'),
  };
  await writeFile(pki.chainFile, ca.pem + root.pem);
  return pki;
}

export type TestServer = {
  url: string;
  requests: number;
  close(): Promise<void>;
};

type Handler = (
  body: Buffer,
  request: http.IncomingMessage,
  response: http.ServerResponse,
) => void | Promise<void>;

/** An HTTP server on a free local port; `requests` counts what it received. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const state = { requests: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests += 1;
      Promise.resolve(handler(Buffer.concat(chunks), request, response)).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler that answers with a fixed body (a DER message, or garbage) and content type. */
export const answerWith =
  (contentType: string, answer: (body: Buffer) => Promise<Uint8Array> | Uint8Array, status = 200): Handler =>
  async (body, _request, response) => {
    const bytes = await answer(body);
    response.writeHead(status, { 'content-type': contentType, 'content-length': bytes.length });
    response.end(bytes);
  };
