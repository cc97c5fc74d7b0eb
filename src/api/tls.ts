// A secure connection the client refused, in words: Node reports OpenSSL's codes
// (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED…), which say nothing to most users. Each failure
// here is the same on every attempt, so it is never retried. The advice never offers plain http or
// turning verification off: a certificate a machine does not trust is trusted by naming its
// authority (NODE_EXTRA_CA_CERTS, read by Node itself at start-up).

export interface CertificateProblem {
  /** what is wrong, after "cannot connect securely to URL: " */
  what: string;
  hint: string;
}

/** What Node's error carries: the code, and for a wrong host the host and the certificate. */
export interface TlsErrorFields {
  code?: string;
  host?: string;
  cert?: { subjectaltname?: string };
}

const PRIVATE_CA =
  'if the service uses a private certificate authority, ' +
  "set NODE_EXTRA_CA_CERTS to a PEM file of that authority's certificate";
const CLOCK = "check this machine's date and time";
const NAMES_SHOWN = 80;
const HTTPS_PORT = "check that the base URL's host and port serve HTTPS";

const UNTRUSTED_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
]);
/** the other certificate codes OpenSSL reports (X509_V_ERR_… without the prefix) */
const OTHER_CERTIFICATE = /^(CERT_|UNABLE_TO_|INVALID_CA|PATH_LENGTH_|INVALID_PURPOSE|HOSTNAME_MISMATCH|IP_ADDRESS_)/;

const EXPIRED: CertificateProblem = {
  what: 'its certificate has expired',
  hint: `the service's operator must renew it; if it should still be valid, ${CLOCK}`,
};
const NOT_YET_VALID: CertificateProblem = { what: 'its certificate is not valid yet', hint: CLOCK };
const SELF_SIGNED: CertificateProblem = { what: 'its certificate is not trusted (self-signed)', hint: PRIVATE_CA };
const UNTRUSTED: CertificateProblem = {
  what: 'its certificate is not trusted (this machine cannot trace it to an authority it trusts)',
  hint: PRIVATE_CA,
};
const REVOKED: CertificateProblem = {
  what: 'its certificate has been revoked',
  hint: "the service's operator must replace it",
};

function otherHost(err: TlsErrorFields): CertificateProblem {
  const names = err.cert?.subjectaltname;
  const shown = names && ` (${names.length > NAMES_SHOWN ? `${names.slice(0, NAMES_SHOWN)}…` : names})`;
  return {
    what: `its certificate is for another host${shown ?? ''}, not ${err.host ?? 'the one in the base URL'}`,
    hint: 'check the host in the base URL: it must be one the certificate names',
  };
}

/**
 * The problem a failed connection's error stands for, if it is one of TLS or its certificate.
 * `extraCaCerts`: NODE_EXTRA_CA_CERTS, when set: a certificate still untrusted is not in that file.
 */
export function certificateProblem(err: TlsErrorFields, extraCaCerts?: string): CertificateProblem | undefined {
  const problem = problemOf(err);
  if (!extraCaCerts || problem?.hint !== PRIVATE_CA) return problem;
  const issuer = problem === SELF_SIGNED ? 'this self-signed certificate' : 'the authority that issued it';
  const set = `NODE_EXTRA_CA_CERTS is set (${extraCaCerts})`;
  return { ...problem, hint: `${set}, but that file does not include ${issuer}: add its certificate (PEM) to it` };
}

function problemOf(err: TlsErrorFields): CertificateProblem | undefined {
  const code = err.code;
  if (!code) return undefined;
  if (code === 'CERT_HAS_EXPIRED') return EXPIRED;
  if (code === 'CERT_NOT_YET_VALID') return NOT_YET_VALID;
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return SELF_SIGNED;
  if (UNTRUSTED_CODES.has(code)) return UNTRUSTED;
  if (code === 'CERT_REVOKED') return REVOKED;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return otherHost(err);
  if (OTHER_CERTIFICATE.test(code)) return { what: `its certificate is not valid (${code})`, hint: PRIVATE_CA };
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    return { what: `the secure connection failed (${code})`, hint: HTTPS_PORT };
  }
  return undefined;
}
