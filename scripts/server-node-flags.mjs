// The V8 flags the production server (scripts/server.mjs) runs with; `npm start`, the benches and the
// e2e tests all start it with these, so what is measured is what is served.
//
// --max-semi-space-size: a request through Next.js allocates a few hundred kilobytes that die young
// (web streams, the NextRequest, headers, JSON), so at hundreds of requests a second the default 16 MB
// semi-space is scavenged dozens of times a second and garbage collection took about an eighth of the
// server's time. 64 MB scavenges a quarter as often and each scavenge costs about the same (it copies
// only what survives): bench/preflight measured +24% preflight and +8% health throughput with it.
// The cost is at most 3 × 64 MB more address space, of which only what is used is resident.
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64"];
