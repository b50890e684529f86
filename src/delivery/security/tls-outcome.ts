import type { TlsaRecord } from './tlsa-query.js';
import { matchTlsa } from './tlsa-match.js';

/** The policy a delivery ran under (docs/delivery.md; `details.tls.policy`). */
export type TlsPolicyName = 'none' | 'mta-sts' | 'dane';

/** What a policy demands of the session to one MX host. */
export interface TlsRequirement {
  policy: TlsPolicyName;
  /** MTA-STS mode; DANE is always enforced (RFC 7672 §2.2), so `enforce` there too. */
  mode: 'enforce' | 'testing' | null;
  /** DANE: the host's usable, authenticated TLSA records. */
  tlsa?: TlsaRecord[];
  /** MTA-STS testing: the host is not among the policy's MX patterns (a failure to report, not to act on). */
  mxMismatch?: boolean;
  /** How TLS-RPT names the policy (RFC 8460 §4.4). */
  report?: ReportPolicy;
}

/** A policy as TLS-RPT describes it. */
export interface ReportPolicy {
  policyType: 'sts' | 'tlsa' | 'no-policy-found';
  policyString: string[];
  policyMx: string[];
}

/** What a session's TLS came to: the `tls` of `delivered` and `accepted-by-mta` details. */
export interface TlsOutcome {
  /** Negotiated protocol (`TLSv1.3`), or null in plain text. */
  version: string | null;
  cipher: string | null;
  policy: TlsPolicyName;
  mode?: 'enforce' | 'testing';
  /** The certificate was authenticated: a chain to a trusted CA valid for the MX name, or a matching TLSA record. */
  validated: boolean;
  /** Why it was not, when a policy asked for it. */
  failure?: string;
  /** The RFC 8460 §4.3 result type of that failure. */
  result_type?: string;
}

/** The TLS state of an open session (smtp-session.ts). */
export interface SessionTls {
  version: string;
  cipher: string;
  /** Node's verdict on the chain and the host name against the trusted CAs. */
  authorized: boolean;
  authorizationError: string | null;
  /** The presented chain, DER, leaf first. */
  chain: Buffer[];
}

/** Whether the session may carry mail under the requirement, and what to record. */
export interface TlsVerdict {
  outcome: TlsOutcome;
  /** The policy forbids sending over this session: the host is skipped and the mail deferred. */
  refuse: boolean;
}

/** RFC 8460 §4.3 result type of a Node certificate verification error code. */
export function resultTypeOf(code: string | null): string {
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'certificate-host-mismatch';
    case 'CERT_HAS_EXPIRED':
      return 'certificate-expired';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'certificate-not-trusted';
    default:
      return 'validation-failure';
  }
}

/**
 * Judges a session against the requirement: without a policy anything goes (opportunistic TLS,
 * RFC 7435) and `validated` only says what Node found; MTA-STS wants TLS with a certificate valid
 * for the MX name (RFC 8461 §4.2); DANE wants TLS with a chain matching the TLSA records (RFC 7672
 * §3). A failure refuses the session in enforce mode and is only recorded in testing mode
 * (RFC 8461 §5).
 */
export function judgeTls(req: TlsRequirement | undefined, host: string, tls: SessionTls | null): TlsVerdict {
  const policy = req?.policy ?? 'none';
  const mode = req?.mode ?? null;
  const base: TlsOutcome = {
    version: tls?.version ?? null,
    cipher: tls?.cipher ?? null,
    policy,
    ...(mode !== null ? { mode } : {}),
    validated: false,
  };
  const fail = (resultType: string, failure: string): TlsVerdict => ({
    outcome: { ...base, validated: false, failure, result_type: resultType },
    refuse: policy !== 'none' && mode === 'enforce',
  });
  if (policy === 'dane') {
    if (tls === null) return fail('starttls-not-supported', `${host} offered no STARTTLS, which DANE requires`);
    const verdict = matchTlsa(req?.tlsa ?? [], tls.chain, [host]);
    if (!verdict.ok) return fail('tlsa-invalid', `DANE: ${verdict.reason} of ${host}`);
    return { outcome: { ...base, validated: true }, refuse: false };
  }
  if (tls === null) {
    if (policy === 'none') return { outcome: base, refuse: false };
    return fail('starttls-not-supported', `${host} offered no STARTTLS, which its domain's MTA-STS policy requires`);
  }
  if (policy === 'mta-sts' && req?.mxMismatch)
    return fail('validation-failure', `${host} is not an MX host of the domain's MTA-STS policy`);
  if (tls.authorized) return { outcome: { ...base, validated: true }, refuse: false };
  if (policy === 'none') return { outcome: base, refuse: false };
  return fail(
    resultTypeOf(tls.authorizationError),
    `the certificate of ${host} is not valid for it (${tls.authorizationError ?? 'not trusted'}), which its domain's MTA-STS policy requires`,
  );
}
