/** What scripts/server.mjs answers or rewrites before Next.js sees a request (see unroutable-request.mjs). */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
export declare function answerUnroutable(req: IncomingMessage, res: ServerResponse): boolean;
export declare function escapeUndecodableImagePath(req: { url?: string }): void;
export declare function answerClientError(err: { code?: string } | undefined, socket: Socket): void;
