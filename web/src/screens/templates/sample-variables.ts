/**
 * Sample variables for a version's preview, made from the paths it uses (docs/templates.md,
 * Variables a template needs): `user.first_name` gives `{"user": {"first_name": "first_name"}}`,
 * `items[].name` a one-element list. Each value is its own name, so the preview shows where it lands.
 */
export function sampleVariables(paths: string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = path.split('.');
    let current: Record<string, unknown> = root;
    segments.forEach((segment, i) => {
      const list = segment.endsWith('[]');
      const key = list ? segment.slice(0, -2) : segment;
      const last = i === segments.length - 1;
      if (list) {
        if (!Array.isArray(current[key])) current[key] = [{}];
        const first = (current[key] as unknown[])[0];
        if (typeof first !== 'object' || first === null) (current[key] as unknown[])[0] = {};
        current = (current[key] as Record<string, unknown>[])[0]!;
      } else if (last) {
        if (current[key] === undefined) current[key] = key;
      } else {
        const next = current[key];
        if (typeof next !== 'object' || next === null || Array.isArray(next)) current[key] = {};
        current = current[key] as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** Parses the sample variables: an object, or the reason it is not one. */
export function parseVariables(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'The sample variables must be a JSON object: { "name": value, … }' };
  return { ok: true, value: value as Record<string, unknown> };
}
