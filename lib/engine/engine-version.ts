// The engine's version is the package version: a change of rules ships as a new release, and every result
// names the release that produced it (it is one of the inputs of decision_input_digest).
import pkg from "@/package.json";

export const ENGINE_VERSION: string = pkg.version;
