/** The settings scripts/server.mjs reads itself (see server-settings.mjs). */
export declare function serverSettings(env?: Record<string, string | undefined>): { port: number; hostname: string; requestTimeout: number };
export declare function listenFailureMessage(err: unknown, hostname: string, port: number): string;
export declare function wholeNumberProblem(name: string, raw: string | undefined, min: number, max?: number): string | null;
export declare const MAX_TIMER_MS: number;
