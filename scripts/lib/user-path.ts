import path from "node:path";

/**
 * A file path the user typed, resolved from the directory they typed it in: npm runs scripts from the package
 * root and keeps the caller's directory in INIT_CWD, so `npm run verify -- ./eval.json` from a subdirectory
 * would otherwise look for the file in the wrong place.
 */
export function userPath(file: string): string {
  return path.resolve(process.env.INIT_CWD || process.cwd(), file);
}
