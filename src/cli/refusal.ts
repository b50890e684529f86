import type { RefusedError } from '../core/refused-error.js';

/**
 * The one-line stderr reason for a feature's refusal (`main.ts` prints it after `posthorn: ` and
 * exits 1): its message, and where the operator has an obvious next command, that command.
 */
export function refusalLine(err: RefusedError): string {
  const next = nextStep(err);
  return next === undefined ? err.message : `${err.message}; ${next}`;
}

function nextStep(err: RefusedError): string | undefined {
  if (err.retry) return 'run the command again';
  if (err.reason !== 'not_found' || err.subject === undefined) return undefined;
  switch (err.subject.kind) {
    case 'domain':
      return `add it with: posthorn domain add ${err.subject.name} --account NAME`;
    case 'webhook':
      return `set one with: posthorn webhook set ${err.subject.name} URL`;
    case 'template':
      return `create it with: posthorn template create ${err.subject.name} --account NAME --subject S --html FILE`;
    default:
      return undefined;
  }
}
