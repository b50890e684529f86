import type { MimeHeader } from '../../mime/parse-mime.js';
import { header } from '../../mime/parse-mime.js';

/**
 * Auto-replies (RFC 3834: vacation notices, "out of office") answer the message but report no
 * failure: they must never become a bounce, whatever addresses they quote.
 */
export function isAutoReply(headers: readonly MimeHeader[], subject: string, text: string): boolean {
  const autoSubmitted = (header(headers, 'auto-submitted') ?? '').toLowerCase();
  const vacationSubject =
    /\b(?:out of (?:the )?office|auto(?:matic)?[ -]?(?:reply|response|answer)|vacation|abwesenheit|absence|自動応答|自動返信|不在)\b|^(?:auto|autoreply|ooo)\s*:/i.test(
      subject,
    );
  const bounceWords =
    /undeliver|not (?:be )?delivered|delivery (?:status|fail|has failed|problem)|returned mail|failure notice|mail delivery|could not be delivered|non remis|unzustellbar|rejected/i;
  if (bounceWords.test(subject)) return false;
  if (vacationSubject) return true;
  return autoSubmitted === 'auto-replied' && !bounceWords.test(text.slice(0, 2000)) && !!header(headers, 'in-reply-to');
}
