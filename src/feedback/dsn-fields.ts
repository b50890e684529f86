/**
 * The fields of a message/delivery-status body (RFC 3464 §2.1): one per-message group, then one
 * group per recipient, groups separated by empty lines. Also used for message/feedback-report
 * (RFC 5965 §3.1), which has the same field syntax in a single group.
 */

/** One field group: lower-cased names to values; a repeated field keeps every value, in order. */
export type FieldGroup = Map<string, string[]>;

/**
 * Parses field groups. Continuation lines (leading white space) are kept as separate lines joined
 * by `\n`, so a multi-line SMTP reply in Diagnostic-Code keeps its line structure. Lines that are
 * not fields are skipped: a malformed report yields fewer fields, never an exception.
 */
export function parseFieldGroups(text: string): FieldGroup[] {
  const groups: FieldGroup[] = [];
  let group: FieldGroup | null = null;
  let last: { name: string; index: number } | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      group = null;
      last = null;
      continue;
    }
    if (/^[ \t]/.test(line) && group && last) {
      const values = group.get(last.name) as string[];
      values[last.index] = `${values[last.index]}\n${line.trim()}`;
      continue;
    }
    const m = /^([\x21-\x39\x3b-\x7e]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    if (!group) {
      group = new Map();
      groups.push(group);
    }
    const name = (m[1] as string).toLowerCase();
    const values = group.get(name) ?? [];
    values.push((m[2] as string).trim());
    group.set(name, values);
    last = { name, index: values.length - 1 };
  }
  return groups;
}

/** The first value of a field with its lines joined by one space, or null. */
export function field(group: FieldGroup, name: string): string | null {
  const value = group.get(name)?.[0];
  return value === undefined ? null : value.replace(/\n/g, ' ').trim();
}

/** The first value of a field with its line breaks kept, or null. */
export function fieldLines(group: FieldGroup, name: string): string | null {
  return group.get(name)?.[0] ?? null;
}

/**
 * The value of a typed field such as `rfc822; user@example.org` or `smtp; 550 …` (RFC 3464 §2.1.2):
 * the type in lower case (null when there is no `;`) and the rest.
 */
export function typedValue(value: string): { type: string | null; text: string } {
  const m = /^([\w.+-]+)\s*;\s*([\s\S]*)$/.exec(value);
  if (!m) return { type: null, text: value.trim() };
  return { type: (m[1] as string).toLowerCase(), text: (m[2] as string).trim() };
}

/** An address from a typed address field: angle brackets and surrounding space removed. */
export function addressOf(value: string | null): string | null {
  if (value === null) return null;
  const text = typedValue(value.replace(/\n/g, ' ')).text.trim();
  const bare = /<([^<>]*)>/.exec(text)?.[1] ?? text;
  return bare.trim() === '' ? null : bare.trim();
}
