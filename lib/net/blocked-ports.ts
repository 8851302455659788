/**
 * The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking): fetch refuses to connect to
 * them (mail, IRC, X11, …) before any DNS or socket, so fetchPublic, which is undici's fetch, can never reach a
 * URL on one of them. The same list as undici's (tests/unit/net/blocked-ports.test.ts keeps them equal).
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<string> = new Set([
  "1", "7", "9", "11", "13", "15", "17", "19", "20", "21", "22", "23", "25", "37", "42", "43", "53", "69", "77", "79",
  "87", "95", "101", "102", "103", "104", "109", "110", "111", "113", "115", "117", "119", "123", "135", "137",
  "139", "143", "161", "179", "389", "427", "465", "512", "513", "514", "515", "526", "530", "531", "532",
  "540", "548", "554", "556", "563", "587", "601", "636", "989", "990", "993", "995", "1719", "1720", "1723",
  "2049", "3659", "4045", "4190", "5060", "5061", "6000", "6566", "6665", "6666", "6667", "6668", "6669", "6679",
  "6697", "10080",
]);
