/** Next's optional build manifests that scripts/server.mjs fills with `{}` (see optional-manifests.mjs). */
export declare const OPTIONAL_MANIFESTS: readonly string[];
export declare function fillOptionalManifests(distDir?: string): string[];
