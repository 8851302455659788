/** A message on one line: a parser's excerpt of the file it could not read may hold line breaks. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, " ").trim();
}
