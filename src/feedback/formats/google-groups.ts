import type { BounceFormat, FoundRecipient } from './types.js';

/**
 * Google Groups refusals: "the group you tried to contact (NAME) may not exist, or you may not have
 * permission to post messages to the group". The group's address is the original's recipient; the
 * refusal is a permission problem, not a dead address.
 */
export const googleGroups: BounceFormat = {
  id: 'google-groups',
  family: 'Google Groups',
  detect: (ctx) => /the group you tried to contact \(.*\) may not exist/i.test(ctx.mtaText),
  extract: (ctx) => {
    const to =
      ctx.original
        ?.filter((h) => h.name === 'to' || h.name === 'cc')
        .map((h) => h.value)
        .join(', ') ?? '';
    const groups = [...to.matchAll(/[^\s<>,"]+@googlegroups\.com/gi)].map((m) => m[0]);
    const list = groups.length > 0 ? groups : [...to.matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((m) => m[0]);
    return [...new Set(list)].map((address): FoundRecipient => ({
      address,
      action: 'failed',
      status: '5.0.0',
      diagnostic: 'the group may not exist, or you may not have permission to post messages to the group',
      reason: 'content_filtered',
    }));
  },
  source:
    'Google Groups: "We\'re writing to let you know that the group you tried to contact (NAME) may not exist, or you may not have permission to post messages to the group."',
};
