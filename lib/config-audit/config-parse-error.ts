/** A config file that could not be read; `line` and `column` are 1-based and point at the first problem. */
export class ConfigParseError extends Error {
  constructor(
    /** What is wrong, without the position. */
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
  }
}

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
