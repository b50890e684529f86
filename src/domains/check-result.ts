/**
 * The outcome of checking one published record: what was expected, the raw values found at the
 * name, and, when not ok, one sentence a customer can act on.
 */
export interface CheckResult {
  ok: boolean;
  expected: string;
  found: string[];
  problem?: string;
  warnings?: string[];
}

/** Builds a CheckResult, leaving `problem` and `warnings` out when there are none. */
export function checkResult(
  expected: string,
  found: string[],
  problem: string | undefined,
  warnings: string[] = [],
): CheckResult {
  const result: CheckResult = { ok: problem === undefined, expected, found };
  if (problem !== undefined) result.problem = problem;
  if (warnings.length > 0) result.warnings = warnings;
  return result;
}
