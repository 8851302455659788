export * from "./servers";
export * from "./server-versions";
export * from "./server-packages";
export * from "./server-remotes";
export * from "./repositories";
export * from "./registry-syncs";
