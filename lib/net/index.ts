export { fetchPublic, OutboundBlockedError, publicAgent, publicLookup } from "./fetch-public";
export { isPublicAddress } from "./address-policy";
export { parseAllowList, currentAllowList } from "./allow-list";
export { checkPublicHost, type HostVerdict } from "./check-public-host";
