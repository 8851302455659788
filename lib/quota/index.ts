// The one quota entry point (DESIGN §1, §7): REST (lib/api/with-caller.ts) and
// the MCP endpoint call these same functions.
export type { Caller, KeylessAllowance, QuotaState, Tier, WindowState } from "./caller";
export { isAnonymous } from "./caller";
export { API_KEY_HEADER, admitCaller, admitLater, callerInputFrom, requireKey, resolveCaller } from "./resolve-caller";
export type { AdmitOptions, CallerInput, PendingAdmission, ResolvedCaller } from "./resolve-caller";
export { checkBurst, burstBucket, burstLimit } from "./check-burst";
export { READ_CHARGE, assertAffordable, chargeCaller } from "./charge-caller";
export type { AlongsideWrite, ChargeExtras, ChargeOptions, ChargeResult } from "./charge-caller";
export { undoCharges } from "./undo-charge";
export type { ChargeReceipt } from "./undo-charge";
export { quotaHeaders } from "./quota-headers";
export { currentWindows } from "./current-windows";
export { mergeBatchQuotaHeaders } from "./batch-quota-headers";
export { readWallet, refillWalletIfNewMonth, monthlyGrant } from "./wallet";
export { incrementCounter, incrementCounterBelow, readCounter } from "./counters";
export type { WalletView } from "./wallet";
export { pruneQuotaRows } from "./prune-quota-rows";
export { utcDay, utcMonthStart } from "./utc";
