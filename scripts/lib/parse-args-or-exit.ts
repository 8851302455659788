import { parseArgs, type ParseArgsConfig } from "node:util";
import { oneLine } from "./one-line";

/**
 * node:util's parseArgs, with a misspelt, unknown or valueless option as one line and exit 2 (parseArgs throws,
 * and uncaught that is a stack trace that buries the option's name).
 */
export function parseArgsOrExit<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    // every job that parses its arguments here has --help
    console.error(`invalid arguments: ${oneLine((err as Error).message)} (--help lists the options)`);
    process.exit(2);
  }
}
