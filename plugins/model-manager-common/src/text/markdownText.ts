/**
 * Plain text as Markdown that shows it as written, with as few backslashes as that takes: the
 * same string is also shown as plain text (the scaffolder's expanded error and its copy button),
 * where every backslash added here is noise the user copies. A backslash goes before a character
 * only where Markdown could read it as markup in this text (CommonMark's backslash escapes,
 * https://spec.commonmark.org/0.31.2/#backslash-escapes, and GFM's extensions):
 * - a character that only makes markup in pairs (a backtick's code span, `*` and `_` emphasis,
 *   `~` strikethrough, a `[...]` link) when the text holds the pair: a lone `*` or `[` stays;
 * - `_` only where it could open or close emphasis (not inside a word such as HF_TOKEN, which
 *   GFM leaves alone);
 * - `<` only where it could open an HTML tag or autolink (a letter, `/`, `!` or `?` after it),
 *   `&` only where it spells an entity (`&lt;`), a backslash only before punctuation or a line end;
 * - at a line's beginning, a hash, greater-than sign, dash, plus, star or numbered item that
 *   would start a heading, quote or list, and a line of `-`, `=`, `*` or `_` that would make a
 *   thematic break or underline the line above as a heading;
 * - `|` when a line could be a table's delimiter row.
 * URLs stay links.
 */
export function markdownText(text: string): string {
  // URLs as they are: GFM links them, and a backslash would become part of the link.
  const parts = text.split(/(https?:\/\/[^\s<>]+)/);
  const prose = parts.filter((_, i) => i % 2 === 0).join('\n');
  const escape = markupOf(prose);
  return parts.map((part, i) => (i % 2 ? part : escape(part))).join('');
}

/** The characters Markdown reads as markup only when the text holds two of them (or the pair). */
const PAIRED: ReadonlyArray<{
  chars: RegExp;
  pair: (prose: string) => boolean;
}> = [
  { chars: /`/g, pair: p => count(p, /`/g) >= 2 },
  { chars: /\*/g, pair: p => count(p, /\*/g) >= 2 },
  { chars: /~/g, pair: p => count(p, /~/g) >= 2 },
  { chars: /[[\]]/g, pair: p => /\[/.test(p) && /\]/.test(p) },
];

/** An underscore that is not inside a word: one that could open or close emphasis. */
const EMPHASIS_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/** A table's delimiter row (GFM): cells of dashes, colons for alignment, split by pipes. */
const DELIMITER_ROW =
  /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/m;

function count(text: string, chars: RegExp): number {
  return text.match(chars)?.length ?? 0;
}

/** The escaping this text needs, judged over all of its prose (a pair may straddle a URL). */
function markupOf(prose: string): (text: string) => string {
  const paired = PAIRED.filter(p => p.pair(prose)).map(p => p.chars);
  const underscores = count(prose, EMPHASIS_UNDERSCORE) >= 2;
  const pipes =
    /\|/.test(prose) && /-/.test(prose) && DELIMITER_ROW.test(prose);
  return text => {
    let out = text
      // A backslash escapes the punctuation after it, or breaks the line before a line end.
      .replace(/\\(?=[!-/:-@[-`{-~]|\n|$)/g, '\\\\')
      // An HTML tag, comment, declaration or autolink opens with `<` and one of these.
      .replace(/<(?=[A-Za-z/!?])/g, '\\<')
      // An entity or numeric character reference.
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
    for (const chars of paired) out = out.replace(chars, c => `\\${c}`);
    if (underscores) out = out.replace(EMPHASIS_UNDERSCORE, '\\_');
    if (pipes) out = out.replace(/\|/g, '\\|');
    return escapeLineStarts(out);
  };
}

function escapeLineStarts(text: string): string {
  return (
    text
      // A line of -, =, * or _ only (spaces between): a thematic break or a heading's underline.
      .replace(
        /^([ \t]*)(?:(?<!\\)([-=*_]))(?=(?:[ \t]*\\?\2)*[ \t]*$)/gm,
        '$1\\$2',
      )
      .replace(
        /^([ \t]*)(?:(>)|(#{1,6}|[+*-])(?=\s|$)|(\d+)([.)])(?=\s|$))/gm,
        (_, space, quote, mark, number, dot) =>
          quote
            ? `${space}\\>`
            : mark
            ? `${space}\\${mark}`
            : `${space}${number}\\${dot}`,
      )
  );
}
