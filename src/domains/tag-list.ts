/** A parsed `tag=value; ...` list: tags in the order written, and what could not be parsed. */
export interface TagList {
  tags: Map<string, string>;
  order: string[];
  errors: string[];
}

/**
 * Parses the tag-list format shared by DKIM key records (RFC 6376 §3.2) and DMARC records
 * (RFC 7489 §6.4): `;`-separated `name=value`, whitespace around names and values folded away,
 * a trailing `;` allowed. A duplicate tag name makes the list invalid (RFC 6376 §3.2). DKIM tag
 * names are case-sensitive; DMARC's are ABNF literals, so `foldCase` lower-cases them.
 */
export function parseTagList(text: string, foldCase = false): TagList {
  const list: TagList = { tags: new Map(), order: [], errors: [] };
  for (const spec of text.split(';')) {
    if (spec.trim() === '') continue;
    const eq = spec.indexOf('=');
    const written = eq < 0 ? '' : spec.slice(0, eq).trim();
    const name = foldCase ? written.toLowerCase() : written;
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      list.errors.push(`"${spec.trim()}" is not a tag=value pair`);
      continue;
    }
    if (list.tags.has(name)) list.errors.push(`tag ${name} appears twice`);
    list.tags.set(name, spec.slice(eq + 1).trim());
    list.order.push(name);
  }
  return list;
}
