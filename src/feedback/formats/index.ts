import { TEXT_BOUNCE_FORMATS, beforeCopy } from '../text-bounce-formats.js';
import { amazonSes } from './amazon-ses.js';
import { exchange2003 } from './exchange2003.js';
import { generic } from './generic.js';
import { googleGroups } from './google-groups.js';
import { office365 } from './office365.js';
import { postfix } from './postfix.js';
import { rfc3464, rfc3464Text } from './rfc3464.js';
import type { BounceFormat, FoundRecipient } from './types.js';

export type { BounceFormat, FoundRecipient, ReportContext } from './types.js';

/** The text formats described as data in text-bounce-formats.ts (qmail, Yahoo, Exim, Sendmail, Exchange 2007). */
const described: BounceFormat[] = TEXT_BOUNCE_FORMATS.map((f) => ({
  id: f.id,
  family: f.mta,
  detect: (ctx) => f.signature.test(ctx.mtaText) || f.signature.test(ctx.text),
  extract: (ctx) =>
    f
      .extract(ctx.text)
      .map((r): FoundRecipient => ({ address: r.address, action: f.action, status: null, diagnostic: r.diagnostic })),
  source: f.source,
}));

/**
 * Every format, most specific first (docs/bounces.md, Formats). The first whose `detect` holds and
 * whose `extract` names a recipient wins; `generic` is last. Adding a format is adding a module
 * and listing it here.
 */
export const BOUNCE_FORMATS: readonly BounceFormat[] = [
  amazonSes,
  rfc3464,
  rfc3464Text,
  googleGroups,
  ...described,
  postfix,
  office365,
  exchange2003,
  generic,
];

export { beforeCopy };
