/**
 * Plain text as Markdown that shows it as written: a backslash before each character Markdown
 * would read as markup (CommonMark's backslash escapes, https://spec.commonmark.org/0.31.2/#backslash-escapes,
 * and GFM's strikethrough): backslash, backtick, asterisk, tilde, less-than sign and square
 * brackets anywhere; an underscore where it could open or close emphasis (not inside a word such
 * as HF_TOKEN, which GFM leaves alone); and a hash, greater-than sign, dash, plus or numbered item
 * that would start a heading, quote or list at the beginning of a line. URLs stay links.
 */
export function markdownText(text: string): string {
  // URLs as they are: GFM links them, and a backslash would become part of the link.
  return text
    .split(/(https?:\/\/[^\s<>]+)/)
    .map((part, i) => (i % 2 ? part : escapeMarkup(part)))
    .join('');
}

function escapeMarkup(text: string): string {
  return text
    .replace(/[\\`*~<[\]]/g, c => `\\${c}`)
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(
      /^([ \t]*)(?:(>)|([#+-])(?=\s|$)|(\d+)([.)])(?=\s|$))/gm,
      (_, space, quote, mark, number, dot) =>
        quote
          ? `${space}\\>`
          : mark
          ? `${space}\\${mark}`
          : `${space}${number}\\${dot}`,
    );
}
