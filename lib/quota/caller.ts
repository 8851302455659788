import type { Tier } from "@/lib/config";

export type { Tier };

/** Who is calling: what service functions of every capability receive (REST, MCP, pages). */
export interface Caller {
  tier: Tier;
  /** null for anonymous (free tier) callers. */
  accountId: string | null;
  keyId: string | null;
  /** The client IP (lib/api/client-ip.ts rules); the anonymous allowance is counted per IP. */
  ip: string;
}

export interface WindowState {
  /** Quota units in the window. */
  limit: number;
  remaining: number;
  /** When the window ends. */
  resetAt: Date;
  /** Window length in seconds (RateLimit-Policy `w`). */
  windowSeconds: number;
}

/**
 * What the quota path learnt during one request, for the response headers. Filled
 * by resolveCaller (credits), checkBurst (burst, anonymous daily) and chargeCaller
 * (updated credits / daily), each of which returns the state it changed.
 */
export interface QuotaState {
  burst?: WindowState;
  /** Anonymous callers: distinct lookups today. */
  daily?: WindowState;
  /** Anonymous callers charged in another keyless allowance (config audits): that allowance today. */
  allowance?: WindowState & { name: string };
  /** Keyed callers: the wallet's remaining credits. */
  creditsRemaining?: number;
  /** The window a 429 refused the call in: the one its headers describe, whichever else is as empty. */
  refusedBy?: string;
}

/** A keyless allowance anonymous subjects are counted in: the 10 daily lookups, or another (config audits, one per IP a UTC day). */
export interface KeylessAllowance {
  name: string;
  limit: number;
}

export function isAnonymous(caller: Caller): boolean {
  return caller.accountId === null;
}
