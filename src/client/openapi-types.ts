/**
 * Types of the Posthorn API, generated from docs/openapi.json by openapi-typescript
 * (`npm run gen:openapi`); do not edit. client.ts builds the typed client on them.
 */
export interface paths {
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI document */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a message
     * @description Queues one message to 1–50 recipients (to, cc and bcc together), with optional attachments and inline images, and answers 202 once it is committed. Checks run in a fixed order; the first that fails decides the answer (docs/api.md, Order of the checks). Over the SMTP relay the same rules answer with SMTP replies.
     */
    post: operations['send'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A domain's events
     * @description The domain's events, newest first, ties by id, with offset paging and filters. A sending key reads its own domain; an account token names one of its account's domains with `domain=` (required when the account has more than one). Events are kept 120 days.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domain': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The sending key's domain
     * @description The API key's own sending domain: its name, status, when it was verified, and its rolling 30-day complaint rate against the 0.1% of the acceptable use policy. Reads share the per-key limit of `GET /v1/events` under their own key (POSTHORN_EVENTS_RATE_LIMIT). An account token uses `GET /v1/domains/{domain}` instead (403 `forbidden` here).
     */
    get: operations['getOwnDomain'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The audit log
     * @description Every management change of the account, newest first: who, what, to what, from where. Secrets never appear.
     */
    get: operations['listAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List templates
     * @description The account's templates by name, each with its newest version.
     */
    get: operations['listTemplates'];
    put?: never;
    /**
     * Create a template
     * @description Makes a template with its version 1. Each part is checked now: a syntax error, or anything outside what templates may use (partials, unknown helpers), is 400 with `field` naming the part (`subject`, `html`, `text`) and a message with its line and column.
     */
    post: operations['createTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a template
     * @description One version of a template (the newest unless `version` is given), with the variables it uses.
     */
    get: operations['getTemplate'];
    /**
     * Add a version
     * @description Makes the next version of the template from the whole body; earlier versions never change, and a send may still name them.
     */
    put: operations['updateTemplate'];
    post?: never;
    /**
     * Delete a template
     * @description Deletes the template and all its versions; a later send naming it is 400 `template.name`. Messages already sent keep the name and version they were rendered from.
     */
    delete: operations['deleteTemplate'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates/{name}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a template's versions
     * @description Every version of the template, newest first.
     */
    get: operations['listTemplateVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates/{name}/render': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview a template
     * @description Renders the template (the newest version unless `version` is given) with `variables` exactly as a send would, and sends nothing. A variable used outside an `#if`, `#unless` or `#each` and not given is 400 naming `variables.<path>`; a render over its budget is 400, one over 10 MiB is 413.
     */
    post: operations['renderTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who is calling
     * @description For a session: its user, role and account, and the CSRF token to send back in `X-CSRF-Token`. For an account token (`kind` `token`): the token's name, role and account, so a client such as the dashboard knows what the token may do.
     */
    get: operations['getSession'];
    put?: never;
    /**
     * Sign in
     * @description Checks the email and password (and, when the user has two-factor sign-in on, `totp`) and sets the session cookie `__Host-posthorn_session` (HttpOnly, Secure, SameSite=Lax). A wrong email or password is one 401 whatever was wrong; a right password without the needed code is 401 with `field` `totp`. Repeated failures per email and per client address are refused with 429 for 15 minutes.
     */
    post: operations['signIn'];
    /**
     * Sign out
     * @description Ends the session on the server (its cookie is refused from now on) and clears the cookie.
     */
    delete: operations['signOut'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/session/totp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start two-factor enrolment
     * @description A new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) as an `otpauth://` URI and a QR code for the authenticator app. Two-factor sign-in is on only once a code is confirmed.
     */
    post: operations['startTotp'];
    /**
     * Turn two-factor sign-in off
     * @description Needs a current code or a recovery code; the recovery codes go too.
     */
    delete: operations['disableTotp'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/session/totp/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Turn two-factor sign-in on
     * @description Confirms enrolment with a current code and returns ten recovery codes, shown only this once.
     */
    post: operations['confirmTotp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List users
     * @description The account's dashboard users, oldest first, a page at a time.
     */
    get: operations['listUsers'];
    put?: never;
    /**
     * Add a user
     * @description Adds a dashboard user to the account (role `admin` by default). Without `password` one is generated and returned, only this once. The email is unique across the server: 409 `conflict`.
     */
    post: operations['createUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/users/{email}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a user
     * @description Removes the user and ends every session of theirs at once.
     */
    delete: operations['removeUser'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List account tokens
     * @description The account's live tokens, oldest first, a page at a time; never the token itself.
     */
    get: operations['listTokens'];
    put?: never;
    /**
     * Create an account token
     * @description A new account token (role `admin` by default), returned only this once; only its hash is kept.
     */
    post: operations['createToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/tokens/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an account token
     * @description Revokes the live token with this name (or prefix); it is refused from its next request.
     */
    delete: operations['revokeToken'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List domains
     * @description The account's sending domains, by name, each as `GET /v1/domains/{domain}` shows it.
     */
    get: operations['listDomains'];
    put?: never;
    /**
     * Add a domain
     * @description Adds a sending domain with a new 2048-bit DKIM key. It starts `pending`: publish the four `records`, then `POST /v1/domains/{domain}/verify`. A name held by a live domain of any account is 409 `conflict`.
     */
    post: operations['addDomain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a domain
     * @description The domain's status, its DNS records with what the last check found, its tracking defaults, Ed25519 signing, complaint rate, and the account's month against its quota. Nothing is looked up in DNS: `POST …/verify` checks now.
     */
    get: operations['getDomain'];
    put?: never;
    post?: never;
    /**
     * Delete a domain
     * @description Its API key, SMTP logins and webhook stop working at once (the next request is 401, the next relay AUTH refused, no more webhook posts). Mail it already accepted is still delivered, and its events stay until retention ends. The name may be added again.
     */
    delete: operations['deleteDomain'];
    options?: never;
    head?: never;
    /**
     * Change domain settings
     * @description Any subset of the tracking defaults, Ed25519 signing and the DKIM rotation period (`dkim.rotate_days`). Turning `ed25519` on makes a new Ed25519 key; its record appears in `records` (publish it; mail is also signed with RSA, so nothing breaks before it exists). The defaults apply to messages accepted from now on.
     */
    patch: operations['updateDomain'];
    trace?: never;
  };
  '/v1/domains/{domain}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify a domain now
     * @description Checks the domain's four DNS records now and returns the domain with the result: `verified` once all four match. A resolver that does not answer changes nothing (the records then show `unknown`). The sandbox domain needs no DNS and is returned as it is.
     */
    post: operations['verifyDomain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/dkim/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the DKIM key
     * @description Makes a new 2048-bit RSA DKIM key under a new selector, shown as `dkim.pending` and as the `dkim_pending` record: publish it beside the current one. Mail is signed with the current key until the new record is found in DNS (the re-check looks every hour, `POST …/verify` at once); then signing moves to the new key and the old selector is listed as `dkim.retired` with the date after which its record may be removed. A rotation already pending is 409 `conflict`; the sandbox domain (no DNS) is 400.
     */
    post: operations['rotateDomainDkim'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/api-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show the API key
     * @description The active key's prefix and dates; the key itself cannot be read back. 404 when there is none.
     */
    get: operations['getApiKey'];
    put?: never;
    /**
     * Create or replace the API key
     * @description Issues the domain's API key, shown only in this answer. Any earlier key of the domain gets 401 from this moment, with no overlap. The domain must be verified (or `warning`): otherwise 403 `domain_unverified`.
     */
    post: operations['createApiKey'];
    /**
     * Revoke the API key
     * @description The key gets 401 from this moment; the domain has no key until one is created. SMTP logins are untouched.
     */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/smtp-credentials': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List SMTP logins
     * @description The domain's active SMTP relay logins, oldest first: usernames and dates, never passwords.
     */
    get: operations['listSmtpCredentials'];
    put?: never;
    /**
     * Create an SMTP login
     * @description A new relay login for the domain, its password shown only in this answer. Connect to `host`:`port` with STARTTLS and AUTH PLAIN or LOGIN. The API key and other logins are untouched.
     */
    post: operations['createSmtpCredential'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/smtp-credentials/{username}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an SMTP login
     * @description That login's next AUTH is refused, and a session it opened is refused at its next message. The API key and the domain's other logins are untouched. A login already revoked is 409 `conflict`.
     */
    delete: operations['revokeSmtpCredential'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show the domain's webhook
     * @description Its URL, status, the ages of the secrets that sign (never a secret itself, whatever the role) and the last 50 POSTs of its delivery log, newest first.
     */
    get: operations['getWebhook'];
    /**
     * Set the domain's webhook URL
     * @description Creates the webhook (201, with its signing secret, shown this once) or changes its URL (200, the secret unchanged). Setting it also re-enables a disabled webhook and sends the deliveries that waited. A URL that is not https, or whose host is a loopback name or a private, loopback, link-local or other non-public address, is refused (400 `url`).
     */
    put: operations['setWebhook'];
    post?: never;
    /**
     * Remove the domain's webhook
     * @description The webhook goes with its delivery log; deliveries not yet made are dropped and never sent. Events keep being stored and stay readable with GET /v1/events.
     */
    delete: operations['removeWebhook'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/webhook/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret
     * @description A new signing secret, shown this once. The previous one keeps signing beside it until `previous_secret_expires_at` (POSTHORN_WEBHOOK_SECRET_OVERLAP, 24 h by default), so the receiver can switch at its own pace.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/webhook/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test event
     * @description POSTs one signed event named `webhook.test` to the webhook now, with the signing, private-address guard and timeout of every delivery, and answers with what the receiver said. Answered 200 whatever the receiver answered; the test is not written to the delivery log.
     */
    post: operations['testWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/webhook/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay stored events
     * @description Queues the domain's stored events between `start` and `end` (inclusive; optionally only those named `event`) to the webhook again, each with its original event id as `webhook-id`, so a receiver deduplicates what it already has. At most 31 days and 10000 events per request: a bigger window is refused (400 `end`) naming the `end` that fits.
     */
    post: operations['replayWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Usage of a month
     * @description The account’s accepted recipients in a calendar month (UTC) against its monthly quota, what happened each day (accepted, delivered, failed, complained, opened, clicked), and the rolling 30-day complaint rate.
     */
    get: operations['getUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Search messages
     * @description A domain's messages, newest first, ties by id, each with its recipients' status. Filters combine; `status` matches a message with at least one recipient in that status. Pages follow `next_cursor`, which never repeats or skips a message while new ones arrive. A sending key reads its own domain; an account token names one with `domain=` (required when the account has more than one).
     */
    get: operations['listMessages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One message
     * @description The message with each recipient's status (`queued`, `deferred`, `delivered`, `failed`, `rejected`, `suppressed`, `scheduled`), its newest event and, while another attempt is to come, the last SMTP reply; and the message's events, oldest first. A send refused at submission (suppressed recipients) is shown from its `rejected-by-system` events. Another domain's message (for a sending key) or another account's is 404.
     */
    get: operations['getMessage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a message
     * @description Cancels what is still pending of a message, typically a scheduled one before its `send_at`: each pending recipient ends `failed` with `details.reason = "cancelled"` (no suppression) and is never delivered. 409 `conflict` once nothing is pending any more (delivered, failed, or in a delivery attempt right now). A sending key cancels its own domain's messages, an admin token its account's.
     */
    post: operations['cancelMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages/{id}/content': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A message's signed source
     * @description The message as delivered (`message/rfc822`): the DKIM-Signature fields the delivery engine added, then the message, byte for byte. Available from the first delivery attempt until the body is purged (`POSTHORN_BODY_RETENTION`, 30 days by default); 404 before and after, saying which. With per-recipient tracking each recipient has its own copy: choose it with `recipient=`.
     */
    get: operations['getMessageContent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/notices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Notices
     * @description The account’s newest notices (at most 100), newest first: domain warnings, complaint-rate warnings, webhooks disabled after failing. They also go to the domain’s webhook, except `webhook.disabled`, which could not reach it. `domain` limits the list to one domain of the account (404 naming `domain` for an unknown one).
     */
    get: operations['listNotices'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/providers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Mailbox providers and delivery shaping
     * @description Every mailbox provider MX hosts roll up into (`other` last): its limits, the pace it is sent to now after throttling replies, and the nodes that suspended it after a reputation block. Admins only: the state is the installation’s, not the account’s.
     */
    get: operations['listProviders'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/suppressions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List and search the suppression list
     * @description In address order, a page at a time. `address` matches any part of the address, case-insensitively; `reason` one reason.
     */
    get: operations['listSuppressions'];
    put?: never;
    /**
     * Suppress an address
     * @description Adds the address (reason `manual` unless given): 201 with the new entry. An address already on the list keeps its entry, which comes back with 200.
     */
    post: operations['addSuppression'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/suppressions/{address}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove an address from the suppression list
     * @description Mail to the address is accepted again from now on. 404 when it is not on the list.
     */
    delete: operations['removeSuppression'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/suppressions/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export the suppression list
     * @description The whole list, streamed: CSV by default, NDJSON with `Accept: application/x-ndjson`. Importing it into an empty account gives back the same export.
     */
    get: operations['exportSuppressions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/suppressions/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import addresses into the suppression list
     * @description Streams a CSV (header line required) or NDJSON body into the list, in batches. Valid rows are imported even when others are invalid; an address already listed keeps its entry; the same file imported again imports 0. The first 100 invalid rows are listed with their line numbers. If the upload stops part-way (cut off, too slow, over 256 MiB), the rows before are kept and the error says how many: send the file again.
     */
    post: operations['importSuppressions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the delivery queue
     * @description The account's delivery jobs not finished yet, one per recipient, in the order they were accepted. Filters combine. Pages follow `next_cursor`.
     */
    get: operations['listQueue'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue/holds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Delivery holds in force
     * @description The holds that delay this account's mail: its own (`account_only`) and the operator's over every account.
     */
    get: operations['listQueueHolds'];
    put?: never;
    /**
     * Suspend delivery to a domain or provider
     * @description Holds this account's mail to a recipient domain or a provider: its jobs are put back without an attempt (attempts are not counted) until the hold is lifted or `until` passes. Suspending again replaces the hold.
     */
    post: operations['suspendQueue'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue/holds/{scope}/{value}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Resume delivery
     * @description Lifts this account's hold on a recipient domain or provider: the mail it held is due at once. 404 when the account has no such hold (an operator's hold is lifted with `posthorn queue resume`).
     */
    delete: operations['resumeQueue'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retry a domain or provider now
     * @description Makes the account's waiting jobs to a recipient domain or provider due now. A scheduled message still waits for its time; a held destination's jobs are held again.
     */
    post: operations['retryQueue'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue/{message_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One message's queue state
     * @description Each recipient's status and, while one is left, its delivery job. Another account's message is 404.
     */
    get: operations['getMessageQueue'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue/{message_id}/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retry a message now
     * @description Makes the message's waiting jobs due now (not before a scheduled message's time).
     */
    post: operations['retryMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/queue/{message_id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a message
     * @description Its pending recipients are never delivered: each ends `failed` with `details.reason = "cancelled"` (no suppression). 409 `conflict` when nothing is pending any more (delivered, failed, or in an attempt right now).
     */
    post: operations['cancelQueuedMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The sandbox mailbox
     * @description In sandbox mode, the messages the sandbox kept instead of sending them, for the account’s domains, newest first, a page at a time (`posthorn sandbox list`). Outside sandbox mode there is no mailbox: 404.
     */
    get: operations['listSandboxMessages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/messages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One kept message
     * @description One message of the sandbox mailbox with its HTML and plain-text bodies decoded, for reading. Its bytes as signed are at `/raw`.
     */
    get: operations['getSandboxMessage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/sandbox/messages/{id}/raw': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A kept message’s raw source
     * @description The message byte for byte as the sandbox received it, DKIM-signed (`posthorn sandbox show ID`).
     */
    get: operations['getSandboxMessageRaw'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/test-send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test message
     * @description Sends a short test message from the domain to one recipient, through the same submit pipeline as `POST /v1/send` (every check, the quota and the rate limit apply; it counts like any message), so an account token or a dashboard admin can try a domain without a sending key. Any domain of the account that can send; from `hello@sandbox.posthorn.test` on the sandbox domain, `test@{domain}` on others. Outside the sandbox the message really goes out. In the sandbox the recipient's local part picks the outcome: `bounce@` (hard bounce: failed, address suppressed); `block@` (policy block: failed with bounce_class block, not suppressed); `defer@` (deferred once, then delivered on the retry); `open@` (delivered, then opened (after the prefetch window, so not flagged automated)); `click@` (delivered, opened, then the first tracked link clicked); `unsubscribe@` (delivered, then unsubscribed with the one-click POST (RFC 8058): suppressed); `complain@` (delivered, then reported as spam through an ARF feedback-loop report (RFC 5965): complained, suppressed). Recorded in the audit log as `domain.test_send`.
     */
    post: operations['testSend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** Error */
    Error: {
      error: {
        /** @enum {string} */
        type:
          | 'invalid_request'
          | 'invalid_key'
          | 'forbidden'
          | 'domain_unverified'
          | 'recipient_suppressed'
          | 'rate_limited'
          | 'payload_too_large'
          | 'idempotency_key_reused'
          | 'idempotency_conflict'
          | 'conflict'
          | 'quota_exceeded'
          | 'not_found'
          | 'request_timeout'
          | 'headers_too_large'
          | 'server_busy'
          | 'internal_error';
        /** @description What is wrong, in words a person can act on. */
        message: string;
        /** @description The input at fault: a body path, query parameter or header. */
        field?: string;
        /** @description Where this error type is explained: `/docs/errors#<type>`. */
        docs: string;
      };
    };
    /**
     * Domain
     * @description A sending domain
     */
    Domain: {
      /** @example mail.example.com */
      name: string;
      /**
       * @description `pending` (never verified), `verified`, `warning` (verified, a record stopped matching; sending continues during the grace period), `unverified` (sends are refused with 403)
       * @enum {unknown}
       */
      status: 'pending' | 'verified' | 'warning' | 'unverified';
      /**
       * Format: date-time
       * @example 2026-11-25T09:30:00.000Z
       */
      created_at: string;
      verified_at: string | null;
      /** @description When the records were last checked (POST …/verify, or the daily re-check) */
      last_checked_at: string | null;
      /** @description The DNS records to publish, with their status */
      records: {
        /**
         * @description What the record is for. The four `spf`, `dkim`, `return_path`, `dmarc` decide verification; `dkim_ed25519` is listed while Ed25519 signing is on; `dkim_pending` while a DKIM rotation waits for its new record (signing moves to it once it is found).
         * @enum {unknown}
         */
        purpose: 'spf' | 'dkim' | 'return_path' | 'dmarc' | 'dkim_ed25519' | 'dkim_pending';
        /** @enum {unknown} */
        type: 'TXT' | 'CNAME';
        /**
         * @description Where to publish it
         * @example ph202611._domainkey.mail.example.com
         */
        name: string;
        /**
         * @description What to publish
         * @example v=DKIM1; k=rsa; p=MIIBIjANBg…
         */
        value: string;
        /** @description What the last check saw: `ok`; `missing` (no record of its kind at the name); `mismatch` (a record is there but not this one); `unknown` (not checked yet, the resolver did not answer, or the record changed since) */
        status: 'ok' | 'missing' | 'mismatch' | 'unknown';
        /** @description The values the last check found at the name (empty when none or not checked) */
        found: string[];
      }[];
      /** @description Defaults for this domain's messages; each message may override them */
      tracking: {
        /** @description Open tracking pixel */
        opens: boolean;
        /** @description Click tracking (links rewritten) */
        clicks: boolean;
        /** @description List-Unsubscribe and one-click unsubscribe headers (RFC 8058) */
        unsubscribe: boolean;
      };
      /** @description Messages are also signed with Ed25519 (RFC 8463); its record is then among `records` */
      ed25519: boolean;
      /** @description The DKIM signing key, and a rotation in progress */
      dkim: {
        /**
         * @description The selector mail is signed with now
         * @example ph202611
         */
        selector: string;
        /**
         * Format: date-time
         * @description When the signing key began to sign
         */
        key_created_at: string;
        /** @description The domain's own rotation period in days (0: never on schedule); null follows the server's POSTHORN_DKIM_ROTATE_DAYS */
        rotate_days: number | null;
        /** @description When the schedule starts the next rotation; null when it never will, or one is pending */
        next_rotation_at: string | null;
        /** @description A rotation waiting for its new record: mail is signed with `selector` until the record is found in DNS, then with this one */
        pending: {
          /** @example ph20261126 */
          selector: string;
          /** @enum {string} */
          type: 'TXT';
          /**
           * @description Where to publish it
           * @example ph20261126._domainkey.mail.example.com
           */
          name: string;
          /**
           * @description What to publish
           * @example v=DKIM1; k=rsa; p=MIIBIjANBg…
           */
          value: string;
          /** @description What the last check saw, as for `records` */
          status: 'ok' | 'missing' | 'mismatch' | 'unknown';
          found: string[];
          /** @description What the last check found wrong; null before the first check */
          problem: string | null;
          /**
           * Format: date-time
           * @description When the rotation started
           */
          since: string;
        } | null;
        /** @description The selector signing left at the last rotation */
        retired: {
          /** @example ph202605 */
          selector: string;
          /** @enum {string} */
          type: 'TXT';
          name: string;
          value: string;
          /**
           * Format: date-time
           * @description Keep the record published until then (mail signed before the switch may still be checked); remove it after
           */
          remove_after: string;
        } | null;
      };
      /** @description The sandbox domain (sandbox mode only): verified without DNS; its mail is kept in the sandbox mailbox, never sent */
      sandbox: boolean;
      /** @description The rolling complaint rate: complaints over deliveries, 30 days */
      complaint_rate: {
        /** @description `complained` events in the window */
        complaints: number;
        /** @description `delivered` events in the window */
        delivered: number;
        /** @description complaints / delivered; null when nothing was delivered in the window */
        rate: number | null;
        /**
         * @description The limit of the acceptable use policy (0.001 = 0.1%)
         * @example 0.001
         */
        threshold: number;
        /**
         * @description A notice is raised above this rate
         * @example 0.0008
         */
        warning_at: number;
        /**
         * @description The rolling window, in days
         * @example 30
         */
        window_days: number;
        /**
         * @description Below this many deliveries in the window no notice is raised (the rate says little yet)
         * @example 1000
         */
        min_delivered: number;
      };
      /** @description The account’s month against its quota (the quota is account-wide) */
      month: {
        /** @description Recipients the account had accepted this calendar month (UTC), across all its domains */
        accepted: number;
        /** @description The account's monthly quota; null is unlimited */
        quota: number | null;
        /** @description Recipients this domain had accepted this calendar month (UTC): its share of `accepted` */
        domain_accepted: number;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getOpenApi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  send: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description 1 to 255 printable ASCII characters; a retry with the same key and request gets the first answer again (docs/api.md, Idempotency).
         * @example order-4711-receipt
         */
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "from": "Acme Orders <orders@example.com>",
         *       "to": [
         *         "ana@example.org"
         *       ],
         *       "cc": "Accounts <accounts@example.org>",
         *       "bcc": [
         *         "audit@example.com"
         *       ],
         *       "reply_to": "help@example.com",
         *       "subject": "Your order 4711",
         *       "html": "<p>Thanks for your order.</p><img src=\"cid:logo@acme\" alt=\"Acme\">",
         *       "attachments": [
         *         {
         *           "filename": "invoice-4711.pdf",
         *           "content": "JVBERi0xLjcKJcfsj6IK"
         *         },
         *         {
         *           "filename": "logo.png",
         *           "content": "iVBORw0KGgo=",
         *           "content_type": "image/png",
         *           "content_id": "logo@acme"
         *         }
         *       ],
         *       "tags": [
         *         "receipt"
         *       ],
         *       "metadata": {
         *         "order_id": "4711"
         *       }
         *     }
         */
        'application/json':
          | {
              /**
               * @description The sender: one mailbox on the key's domain or another verified domain of the account (rewritten to the key's domain).
               * @example Acme Orders <orders@example.com>
               */
              from: string;
              /**
               * @description 1 to 50 recipients. `to`, `cc` and `bcc` together hold at most 50 distinct addresses.
               * @example [
               *       "ana@example.org",
               *       "Bob <bob@example.net>"
               *     ]
               */
              to: string | string[];
              /**
               * @description Copy recipients: delivered to, and shown in the Cc header. null means none.
               * @example Accounts <accounts@example.org>
               */
              cc?: string | string[] | null;
              /**
               * @description Blind copy recipients: delivered to, never shown in the message. null means none.
               * @example [
               *       "audit@example.com"
               *     ]
               */
              bcc?: string | string[] | null;
              /**
               * @description The Reply-To header: where replies go. null means none.
               * @example help@example.com
               */
              reply_to?: string | string[] | null;
              /**
               * @description Trimmed; not blank, at most 998 characters, no CR, LF, NUL or other control characters. Required unless `template` is given; with it, replaces the template's subject.
               * @example Your order 4711
               */
              subject?: string;
              /**
               * @description Render the body (and the subject, unless given) from a stored template (docs/templates.md) instead of `html` and `text`, which are then refused. A variable used outside an #if, #unless or #each and not given is 400 `template.variables.<path>`.
               * @example {
               *       "name": "welcome",
               *       "variables": {
               *         "user": {
               *           "first_name": "Ana"
               *         }
               *       }
               *     }
               */
              template?: {
                /** @description A template of the account */
                name: string;
                /** @description The newest when left out */
                version?: number | null;
                /** @description The values the template uses; at most 256 KiB as JSON (413 otherwise). */
                variables?: {
                  [key: string]: unknown;
                } | null;
              } | null;
              /**
               * @description The HTML body. At least one of `html` and `text` is required; an empty string counts as absent.
               * @example <p>Thanks for your order.</p><img src="cid:logo@acme" alt="Acme">
               */
              html?: string | null;
              /**
               * @description The plain-text body; generated from `html` when absent.
               * @example Thanks for your order.
               */
              text?: string | null;
              /** @description At most 100 files. html, text and the decoded files together are at most 10 MiB (413 `payload_too_large` otherwise). */
              attachments?:
                | {
                    /**
                     * @description The file name readers see (any characters but control characters, `/` and `\`; non-ASCII is sent RFC 2231-encoded). Executable and script types are refused: see docs/api.md, Attachments.
                     * @example invoice-4711.pdf
                     */
                    filename: string;
                    /**
                     * Format: byte
                     * @description The file's bytes, base64 (RFC 4648 §4, standard alphabet; line breaks are ignored, padding may be left out).
                     * @example JVBERi0xLjcKJcfsj6IK
                     */
                    content: string;
                    /**
                     * @description The media type (`type/subtype`, parameters allowed); from the file name when absent. `multipart/*`, `message/*` and executable types are refused.
                     * @example application/pdf
                     */
                    content_type?: string | null;
                    /**
                     * @description Makes the file an inline part that the html shows with `<img src="cid:<content_id>">`; without angle brackets, unique in the message.
                     * @example logo@acme
                     */
                    content_id?: string | null;
                  }[]
                | null;
              /**
               * @description At most 20, each 1–100 characters, not blank, no control characters. Every event carries them.
               * @example [
               *       "receipt"
               *     ]
               */
              tags?: string[];
              /**
               * @description Your own string values (at most 20 keys of 1–40 characters, values of at most 500); every event and webhook of the message carries them as `metadata`.
               * @example {
               *       "order_id": "4711",
               *       "customer": "c_829"
               *     }
               */
              metadata?: {
                [key: string]: string;
              } | null;
              /**
               * @description Scheduled send: when to deliver, as an ISO 8601 date-time with an offset or Unix seconds; in the future and at most 30 days ahead (else 400 naming `send_at`). Until then the recipients are `scheduled`, and `POST /v1/messages/{id}/cancel` cancels it. Absent or null: at once.
               * @example 2026-12-01T09:00:00Z
               */
              send_at?: string | number | null;
              /**
               * @description At most 50 custom headers, each name once (case-insensitively). Headers the service sets (From, To, Cc, Bcc, Reply-To, Subject, Date, Message-ID, Content-*, …) are refused: use the fields.
               * @example {
               *       "X-Order": "4711"
               *     }
               */
              headers?: {
                [key: string]: string;
              };
              /** @description Overrides the domain's open tracking. */
              track_opens?: boolean | null;
              /** @description Overrides the domain's click tracking. */
              track_clicks?: boolean | null;
              /** @description Overrides the domain's List-Unsubscribe setting (RFC 8058). */
              unsubscribe?: boolean | null;
            }
          | unknown
          | unknown;
      };
    };
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H",
           *       "status": "queued",
           *       "dkim": "signed",
           *       "dmarc": "aligned"
           *     }
           */
          'application/json': {
            /**
             * @description The message id every event of the message carries.
             * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
             */
            id: string;
            /** @enum {string} */
            status: 'queued';
            /** @enum {string} */
            dkim: 'signed';
            /** @enum {string} */
            dmarc: 'aligned';
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)); `domain_unverified`: the domain has not passed verification ([more](/docs/errors#domain_unverified)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `idempotency_conflict`: a request with the same `Idempotency-Key` is still in progress ([more](/docs/errors#idempotency_conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: the body is over 10 MiB ([more](/docs/errors#payload_too_large)) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `recipient_suppressed`: a recipient is on the account's suppression list ([more](/docs/errors#recipient_suppressed)); `idempotency_key_reused`: the `Idempotency-Key` was used with a different request ([more](/docs/errors#idempotency_key_reused)) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)); `quota_exceeded`: over the account's monthly quota; `Retry-After` points at the next month ([more](/docs/errors#quota_exceeded)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `internal_error`: a fault on the server; the request may be retried ([more](/docs/errors#internal_error)) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `server_busy`: the server is at its limit of request bodies being received; `Retry-After` says when to retry ([more](/docs/errors#server_busy)) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        limit?: number;
        /** @description Events to skip; to page deeper than 1,000,000, narrow the range with start and end */
        offset?: number;
        /** @description One event type */
        event?:
          | 'accepted-by-system'
          | 'rejected-by-system'
          | 'accepted-by-mta'
          | 'rejected-by-mta'
          | 'delivered'
          | 'failed'
          | 'opened'
          | 'clicked'
          | 'complained'
          | 'unsubscribed';
        /**
         * @description A message id, with or without `msg_`, in any case
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        message_id?: string;
        /** @description Inclusive lower bound: Unix seconds (fractions allowed) or ISO 8601 (a date, or a date-time; no zone means UTC; encode + as %2B) */
        start?: string;
        /**
         * @description Inclusive upper bound, in the forms of start
         * @example 2026-11-21T12:00:00Z
         */
        end?: string;
        /**
         * @description Which of the account's domains to read, with an account token (required when the account has more than one). A sending key reads its own domain.
         * @example mail.example.com
         */
        domain?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Events matching the filter (not the number returned) */
            total: number;
            limit: number;
            offset: number;
            /** @description Newest first, ties by id */
            events: {
              /**
               * @description `evt_…`
               * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              id: string;
              /**
               * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
               * @example delivered
               */
              event: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              occurred_at: string;
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              message_id: string;
              /**
               * @description The sender address, after the from rules
               * @example orders@example.com
               */
              from: string;
              /**
               * @description The recipient this event is about
               * @example ana@example.org
               */
              to: string;
              /** @example Your order 4711 */
              subject: string;
              /**
               * @example [
               *       "receipt"
               *     ]
               */
              tags: string[];
              /**
               * @description The metadata given at send (`{}` when none)
               * @example {
               *       "order_id": "4711"
               *     }
               */
              metadata: {
                [key: string]: string;
              };
              /**
               * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
               * @example {
               *       "mx_host": "mx.example.org",
               *       "response": "250 2.0.0 OK"
               *     }
               */
              details: {
                [key: string]: unknown;
              };
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getOwnDomain: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key's sending domain */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example mail.example.com */
            domain: string;
            /** @enum {unknown} */
            status: 'pending' | 'verified' | 'warning' | 'unverified';
            verified_at: string | null;
            /** @description The rolling complaint rate: complaints over deliveries, 30 days */
            complaint_rate: {
              /** @description `complained` events in the window */
              complaints: number;
              /** @description `delivered` events in the window */
              delivered: number;
              /** @description complaints / delivered; null when nothing was delivered in the window */
              rate: number | null;
              /**
               * @description The limit of the acceptable use policy (0.001 = 0.1%)
               * @example 0.001
               */
              threshold: number;
              /**
               * @description A notice is raised above this rate
               * @example 0.0008
               */
              warning_at: number;
              /**
               * @description The rolling window, in days
               * @example 30
               */
              window_days: number;
              /**
               * @description Below this many deliveries in the window no notice is raised (the rate says little yet)
               * @example 1000
               */
              min_delivered: number;
            };
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listAudit: {
    parameters: {
      query?: {
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            entries: {
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              at: string;
              /**
               * @description `token:<name>`, `user:<email>` or `cli`
               * @example token:deploy-bot
               */
              actor: string;
              /**
               * @description `<noun>.<verb>`
               * @example domain.add
               */
              action: string;
              /**
               * @description What changed; never a secret
               * @example mail.example.com
               */
              target: string;
              ip: string | null;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listTemplates: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description By name */
            templates: {
              id: string;
              name: string;
              /** @description The newest version */
              version: number;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              updated_at: string;
            }[];
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description At least one of html and text. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description A slug, unique in the account
           * @example welcome
           */
          name: string;
          /**
           * @description The subject line, a template: variables are written as they are, with any line break or control character turned into a space.
           * @example Welcome to Acme, {{user.first_name}}!
           */
          subject: string;
          /**
           * @description The HTML part, a template: `{{value}}` is HTML-escaped, `{{{value}}}` is written as it is.
           * @example <p>Hello {{user.first_name}},</p>{{#if trial}}<p>Your trial ends {{date trial.ends_at "D MMMM"}}.</p>{{/if}}
           */
          html?: string | null;
          /**
           * @description The plain-text part, a template: values are written as they are.
           * @example Hello {{user.first_name}},
           */
          text?: string | null;
        };
      };
    };
    responses: {
      /** @description One version of a template. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF */
            id: string;
            /** @example welcome */
            name: string;
            /**
             * @description This version
             * @example 2
             */
            version: number;
            /** @description The newest version, what a send without `version` uses */
            latest_version: number;
            subject: string;
            html: string | null;
            text: string | null;
            /**
             * @description The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.
             * @example [
             *       "items",
             *       "items[].name",
             *       "items[].price",
             *       "user.first_name"
             *     ]
             */
            variables: string[];
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the newest version was made
             * @example 2026-11-25T09:30:00.000Z
             */
            updated_at: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTemplate: {
    parameters: {
      query?: {
        /** @description A version; the newest when left out */
        version?: number;
      };
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One version of a template. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF */
            id: string;
            /** @example welcome */
            name: string;
            /**
             * @description This version
             * @example 2
             */
            version: number;
            /** @description The newest version, what a send without `version` uses */
            latest_version: number;
            subject: string;
            html: string | null;
            text: string | null;
            /**
             * @description The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.
             * @example [
             *       "items",
             *       "items[].name",
             *       "items[].price",
             *       "user.first_name"
             *     ]
             */
            variables: string[];
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the newest version was made
             * @example 2026-11-25T09:30:00.000Z
             */
            updated_at: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  updateTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    /** @description The whole new version: a part left out is not in it. At least one of html and text. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The subject line, a template: variables are written as they are, with any line break or control character turned into a space.
           * @example Welcome to Acme, {{user.first_name}}!
           */
          subject: string;
          /**
           * @description The HTML part, a template: `{{value}}` is HTML-escaped, `{{{value}}}` is written as it is.
           * @example <p>Hello {{user.first_name}},</p>{{#if trial}}<p>Your trial ends {{date trial.ends_at "D MMMM"}}.</p>{{/if}}
           */
          html?: string | null;
          /**
           * @description The plain-text part, a template: values are written as they are.
           * @example Hello {{user.first_name}},
           */
          text?: string | null;
        };
      };
    };
    responses: {
      /** @description One version of a template. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF */
            id: string;
            /** @example welcome */
            name: string;
            /**
             * @description This version
             * @example 2
             */
            version: number;
            /** @description The newest version, what a send without `version` uses */
            latest_version: number;
            subject: string;
            html: string | null;
            text: string | null;
            /**
             * @description The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.
             * @example [
             *       "items",
             *       "items[].name",
             *       "items[].price",
             *       "user.first_name"
             *     ]
             */
            variables: string[];
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the newest version was made
             * @example 2026-11-25T09:30:00.000Z
             */
            updated_at: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listTemplateVersions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Newest first */
            versions: {
              version: number;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  renderTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The values the template uses, as a send would give them (at most 256 KiB as JSON).
           * @example {
           *       "user": {
           *         "first_name": "Ada"
           *       },
           *       "trial": {
           *         "ends_at": "2026-12-09"
           *       }
           *     }
           */
          variables?: {
            [key: string]: unknown;
          };
          /** @description A version; the newest when left out */
          version?: number;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            subject: string;
            /** @description Null when the template has no html part */
            html: string | null;
            /** @description Null when the template has no text part */
            text: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: the body is over 10 MiB ([more](/docs/errors#payload_too_large)) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `server_busy`: the server is at its limit of request bodies being received; `Retry-After` says when to retry ([more](/docs/errors#server_busy)) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description How the caller is signed in: `session`, a dashboard user (the session cookie); `token`, an account token sent as `Authorization: Bearer` (`GET /v1/session` only).
             * @example session
             */
            kind: 'session' | 'token';
            /** @description The signed-in user's email; null for an account token */
            email: string | null;
            /**
             * @description The account token's name; null for a session
             * @example null
             */
            token_name: string | null;
            /**
             * @description `admin` may do everything; `viewer` only reads and never sees a secret.
             * @example admin
             */
            role: 'admin' | 'viewer';
            /**
             * @description The account the user or token belongs to
             * @example acme
             */
            account: string;
            /** @description Whether two-factor sign-in is on (always false for an account token) */
            totp_enabled: boolean;
            /** @description The server runs in sandbox mode: mail is kept in the sandbox mailbox (`GET /v1/sandbox/messages`) */
            sandbox: boolean;
            /**
             * @description Send it back in the `X-CSRF-Token` header on every request of the session that changes something; null for an account token, whose requests need none.
             * @example kq3Vx0o2cJ8m1mE9VgXx0b1S1h0oQ1cS5m9b8PZ6eF4
             */
            csrf_token: string | null;
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  signIn: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The sign-in email
           * @example ada@example.com
           */
          email: string;
          /**
           * @description The password
           * @example correct horse battery
           */
          password: string;
          /**
           * @description The current 6-digit code of the authenticator app, or an unused recovery code, when the user has two-factor sign-in on.
           * @example 123456
           */
          totp?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description How the caller is signed in: `session`, a dashboard user (the session cookie); `token`, an account token sent as `Authorization: Bearer` (`GET /v1/session` only).
             * @example session
             */
            kind: 'session' | 'token';
            /** @description The signed-in user's email; null for an account token */
            email: string | null;
            /**
             * @description The account token's name; null for a session
             * @example null
             */
            token_name: string | null;
            /**
             * @description `admin` may do everything; `viewer` only reads and never sees a secret.
             * @example admin
             */
            role: 'admin' | 'viewer';
            /**
             * @description The account the user or token belongs to
             * @example acme
             */
            account: string;
            /** @description Whether two-factor sign-in is on (always false for an account token) */
            totp_enabled: boolean;
            /** @description The server runs in sandbox mode: mail is kept in the sandbox mailbox (`GET /v1/sandbox/messages`) */
            sandbox: boolean;
            /**
             * @description Send it back in the `X-CSRF-Token` header on every request of the session that changes something; null for an account token, whose requests need none.
             * @example kq3Vx0o2cJ8m1mE9VgXx0b1S1h0oQ1cS5m9b8PZ6eF4
             */
            csrf_token: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  signOut: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  startTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The `otpauth://totp/…` URI for the authenticator app
             * @example otpauth://totp/Posthorn:ada%40example.com?issuer=Posthorn&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30
             */
            uri: string;
            /**
             * @description The base32 secret, for typing into an app by hand
             * @example JBSWY3DPEHPK3PXP
             */
            secret: string;
            /** @description The URI as a QR code: an SVG `data:` URL for an `<img>` */
            qr_code: string;
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  disableTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The current 6-digit code (or, to turn TOTP off, a recovery code)
           * @example 123456
           */
          code: string;
        };
      };
    };
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  confirmTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The current 6-digit code (or, to turn TOTP off, a recovery code)
           * @example 123456
           */
          code: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Ten single-use codes that stand in for a 6-digit code; shown only this once. */
            recovery_codes: string[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listUsers: {
    parameters: {
      query?: {
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            users: {
              /**
               * @description The sign-in email
               * @example ada@example.com
               */
              email: string;
              /**
               * @description `admin` may do everything; `viewer` only reads and never sees a secret.
               * @example admin
               */
              role: 'admin' | 'viewer';
              /** @example acme */
              account: string;
              totp_enabled: boolean;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              last_sign_in_at: string | null;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The sign-in email
           * @example ada@example.com
           */
          email: string;
          /**
           * @description `admin` may do everything; `viewer` only reads and never sees a secret.
           * @example admin
           */
          role?: 'admin' | 'viewer';
          /** @description At least 12 characters and not a common password; generated (and returned once) when left out. */
          password?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The sign-in email
             * @example ada@example.com
             */
            email: string;
            /**
             * @description `admin` may do everything; `viewer` only reads and never sees a secret.
             * @example admin
             */
            role: 'admin' | 'viewer';
            /** @example acme */
            account: string;
            totp_enabled: boolean;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            last_sign_in_at: string | null;
            /** @description The generated password, shown only this once */
            password?: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  removeUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The user's email
         * @example ada@example.com
         */
        email: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listTokens: {
    parameters: {
      query?: {
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            tokens: {
              /** @example deploy-bot */
              name: string;
              /**
               * @description `admin` may do everything; `viewer` only reads and never sees a secret.
               * @example admin
               */
              role: 'admin' | 'viewer';
              /**
               * @description The public part of the token, `pha_<8 hex>`
               * @example pha_1a2b3c4d
               */
              prefix: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              last_used_at: string | null;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description A label, unique among the live tokens
           * @example deploy-bot
           */
          name?: string;
          /**
           * @description `admin` may do everything; `viewer` only reads and never sees a secret.
           * @example admin
           */
          role?: 'admin' | 'viewer';
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example deploy-bot */
            name: string;
            /**
             * @description `admin` may do everything; `viewer` only reads and never sees a secret.
             * @example admin
             */
            role: 'admin' | 'viewer';
            /**
             * @description The public part of the token, `pha_<8 hex>`
             * @example pha_1a2b3c4d
             */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            last_used_at: string | null;
            /**
             * @description The token, shown only this once
             * @example pha_1a2b3c4d_…
             */
            token: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  revokeToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The token name or prefix
         * @example deploy-bot
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listDomains: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The account's domains, by name */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            domains: components['schemas']['Domain'][];
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  addDomain: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The domain to send from, e.g. `mail.example.com` (a subdomain keeps its DNS apart)
           * @example mail.example.com
           */
          name: string;
        };
      };
    };
    responses: {
      /** @description The new domain, `pending`, with the records to publish */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  updateDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "tracking": {
         *         "opens": true,
         *         "clicks": true
         *       },
         *       "ed25519": true
         *     }
         */
        'application/json': {
          /** @description Any of the three tracking defaults */
          tracking?: {
            opens?: boolean;
            clicks?: boolean;
            unsubscribe?: boolean;
          };
          /** @description On: a new Ed25519 key and record (publish it); off: the key is dropped */
          ed25519?: boolean;
          /** @description The DKIM rotation schedule */
          dkim?: {
            /** @description Rotate this domain's DKIM key once it is this many days old; 0 never; null follows the server's POSTHORN_DKIM_ROTATE_DAYS */
            rotate_days: number | null;
          };
        };
      };
    };
    responses: {
      /** @description The domain with its new settings */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  verifyDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain after the check */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  rotateDomainDkim: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain with its pending DKIM record */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain's active key (never the key itself) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example ph_1a2b3c4d */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /** @description The last request made with it, to the minute; null when never used */
            last_used_at: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new key; any earlier key of the domain gets 401 from now on */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The key, shown this once: send it as `Authorization: Bearer <key>`
             * @example ph_1a2b3c4d_Q2hhbmdlIG1lISBUaGlzIGlzIG5vdCBhIHJlYWwga2V5Lg
             */
            key: string;
            /**
             * @description Its public part, to tell keys apart
             * @example ph_1a2b3c4d
             */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)); `domain_unverified`: the domain has not passed verification ([more](/docs/errors#domain_unverified)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listSmtpCredentials: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain's active SMTP logins, oldest first (never a password) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            credentials: {
              /** @example ph_smtp_0123456789ab */
              username: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /** @description The last successful AUTH with it, to the minute; null when never used */
              last_used_at: string | null;
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createSmtpCredential: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new SMTP login */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example ph_smtp_0123456789ab */
            username: string;
            /**
             * @description Shown this once; only its hash is kept
             * @example phs_VGhpcyBpcyBub3QgYSByZWFsIHBhc3N3b3JkLCBqdXN0IGFu
             */
            password: string;
            /**
             * @description The relay host (POSTHORN_HOSTNAME)
             * @example smtp.example.net
             */
            host: string;
            /**
             * @description The submission port, STARTTLS (POSTHORN_SMTP_PORT); implicit TLS is on POSTHORN_SMTPS_PORT
             * @example 587
             */
            port: number;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  revokeSmtpCredential: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
        /** @example ph_smtp_0123456789ab */
        username: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain's webhook: where it posts, whether it is healthy, and its recent delivery log. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Where events are POSTed.
             * @example https://hooks.example.com/posthorn
             */
            url: string;
            /** @description `disabled` after 410 Gone or failing for POSTHORN_WEBHOOK_DISABLE_AFTER; a PUT re-enables it and sends what waited. */
            status: 'active' | 'disabled';
            disabled_at: string | null;
            /** @example null */
            disabled_reason: string | null;
            /** @description Start of the current run of failed attempts; null after any 2xx. */
            failing_since: string | null;
            /** @description The secrets that sign now, newest first; never their values. */
            secrets: {
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /** @description Null for the current secret; for a rotated-out one, when it stops signing (until then both sign every POST). */
              expires_at: string | null;
            }[];
            /**
             * @description Deliveries waiting to be POSTed or retried.
             * @example 0
             */
            pending: number;
            /**
             * @description Deliveries given up after the last retry (about a day of retries).
             * @example 0
             */
            failed: number;
            /** @description The delivery log: the last 50 POSTs, newest first. */
            attempts: {
              /**
               * @description The `webhook-id` POSTed: the event id (`evt_…`) or notice id (`ntc_…`). A replayed event carries its original id.
               * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              event_id: string;
              /**
               * @description The event (or notice) name.
               * @example delivered
               */
              event: string;
              /**
               * @description 1 for a delivery's first POST, counting up with each retry.
               * @example 1
               */
              attempt: number;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              at: string;
              /**
               * @description The receiver's HTTP status; null when there was no response (refused, network error, timeout).
               * @example 200
               */
              status: number | null;
              /**
               * @description From the start of the POST to the end of the response; null when there was no response.
               * @example 42
               */
              duration_ms: number | null;
              /**
               * @description The first 500 characters of the response body; null when there was no response.
               * @example ok
               */
              response: string | null;
              /**
               * @description Why there was no response; null when there was one.
               * @example null
               */
              error: string | null;
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  setWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description An absolute https URL on a public address (http and private or loopback hosts only with POSTHORN_WEBHOOK_ALLOW_PRIVATE=1), no #fragment.
           * @example https://hooks.example.com/posthorn
           */
          url: string;
        };
      };
    };
    responses: {
      /** @description The URL was set; the secret is unchanged (and not shown). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Where events are POSTed.
             * @example https://hooks.example.com/posthorn
             */
            url: string;
            /** @description True when the webhook was disabled and this PUT switched it back on. */
            reenabled: boolean;
          };
        };
      };
      /** @description The webhook was created; its secret is shown this once. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Where events are POSTed.
             * @example https://hooks.example.com/posthorn
             */
            url: string;
            /**
             * @description The signing secret (Standard Webhooks `whsec_…`), shown only in this answer: it cannot be read back. Verify the `webhook-signature` header with it.
             * @example whsec_oxxRarONFGLhfR1hiCaHfE6uoPmRMN1lTD4z5gp+RdA=
             */
            secret: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  removeWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The signing secret (Standard Webhooks `whsec_…`), shown only in this answer: it cannot be read back. Verify the `webhook-signature` header with it.
             * @example whsec_oxxRarONFGLhfR1hiCaHfE6uoPmRMN1lTD4z5gp+RdA=
             */
            secret: string;
            /**
             * Format: date-time
             * @description Until then the previous secret signs beside the new one (POSTHORN_WEBHOOK_SECRET_OVERLAP).
             * @example 2026-11-26T09:30:00.000Z
             */
            previous_secret_expires_at: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  testWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The receiver's HTTP status (2xx means it accepted the test); null when no response was had: refused by the private-address guard, a network error or the timeout.
             * @example 200
             */
            status: number | null;
            /** @example 37 */
            duration_ms: number;
            /**
             * @description The first 500 characters of the response body, or why there was no response.
             * @example ok
             */
            response: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  replayWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    /** @description At most 31 days and 10000 events per request. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description ISO 8601 date-time (`2026-11-21T12:00:00Z`, `2026-11-21T13:00:00.000+01:00`) or date (midnight UTC), or Unix seconds as a string: the forms GET /v1/events takes. Inclusive.
           * @example 2026-11-21T00:00:00Z
           */
          start: string;
          /**
           * @description ISO 8601 date-time (`2026-11-21T12:00:00Z`, `2026-11-21T13:00:00.000+01:00`) or date (midnight UTC), or Unix seconds as a string: the forms GET /v1/events takes. Inclusive.
           * @example 2026-11-21T06:00:00Z
           */
          end: string;
          /**
           * @description Only events of this name.
           * @example delivered
           * @enum {string}
           */
          event?:
            | 'accepted-by-system'
            | 'rejected-by-system'
            | 'accepted-by-mta'
            | 'rejected-by-mta'
            | 'delivered'
            | 'failed'
            | 'opened'
            | 'clicked'
            | 'complained'
            | 'unsubscribed';
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Events queued to the webhook again, each with its original id as `webhook-id`.
             * @example 1234
             */
            queued: number;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getUsage: {
    parameters: {
      query?: {
        /**
         * @description The month to report, `YYYY-MM` (UTC); the current month when left out.
         * @example 2026-11
         */
        month?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The month’s usage. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "month": "2026-11",
           *       "accepted": 1250,
           *       "quota": 50000,
           *       "days": [
           *         {
           *           "date": "2026-11-01",
           *           "accepted": 40,
           *           "delivered": 39,
           *           "failed": 1,
           *           "complained": 0,
           *           "opened": 12,
           *           "clicked": 3
           *         }
           *       ],
           *       "complaint_rate": {
           *         "complaints": 1,
           *         "delivered": 5120,
           *         "rate": 0.000195,
           *         "threshold": 0.001,
           *         "warning_at": 0.0008,
           *         "window_days": 30,
           *         "min_delivered": 1000
           *       }
           *     }
           */
          'application/json': {
            /**
             * @description The month reported, `YYYY-MM` (UTC).
             * @example 2026-11
             */
            month: string;
            /** @description Recipients accepted this month over every domain of the account: the count the quota is held against. */
            accepted: number;
            /** @description The account’s monthly quota in accepted recipients; null when there is none. */
            quota: number | null;
            /** @description One entry per UTC day of the month, oldest first: up to today for the current month, every day for a past one, none for a month to come. */
            days: {
              /**
               * Format: date
               * @description The UTC day, `YYYY-MM-DD`.
               * @example 2026-11-21
               */
              date: string;
              /** @description Recipients accepted (`accepted-by-system` events). */
              accepted: number;
              /** @description `delivered` events. */
              delivered: number;
              /** @description `failed` events (hard, soft and block bounces, and mail given up on). */
              failed: number;
              /** @description `complained` events (spam complaints). */
              complained: number;
              /** @description `opened` events, every load of the pixel. */
              opened: number;
              /** @description `clicked` events, every tracked link followed. */
              clicked: number;
            }[];
            /**
             * @description The account’s rolling 30-day complaint rate as of now, over all its domains (the same figures as `GET /v1/domain` gives per domain), whatever `month` asks for.
             * @example {
             *       "complaints": 1,
             *       "delivered": 5120,
             *       "rate": 0.000195,
             *       "threshold": 0.001,
             *       "warning_at": 0.0008,
             *       "window_days": 30,
             *       "min_delivered": 1000
             *     }
             */
            complaint_rate: {
              /** @description `complained` events in the window. */
              complaints: number;
              /** @description `delivered` events in the window. */
              delivered: number;
              /** @description complaints / delivered; null when nothing was delivered in the window. */
              rate: number | null;
              /** @description The acceptable use policy’s limit (0.001 = 0.1%). */
              threshold: number;
              /** @description A domain above this rate gets a `domain.complaint_rate` notice. */
              warning_at: number;
              /** @description The rolling window, in days, ending now. */
              window_days: number;
              /** @description No notice is raised below this many deliveries in the window. */
              min_delivered: number;
            };
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listMessages: {
    parameters: {
      query?: {
        /** @description `queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time) */
        status?: 'queued' | 'deferred' | 'delivered' | 'failed' | 'rejected' | 'suppressed' | 'scheduled';
        /**
         * @description Messages to this recipient (case-insensitive)
         * @example ana@example.org
         */
        to?: string;
        /** @description Messages with this tag */
        tag?: string;
        /**
         * @description Sent at or after: Unix seconds or ISO 8601, as in GET /v1/events
         * @example 2026-11-21
         */
        start?: string;
        /**
         * @description Sent at or before, in the forms of start
         * @example 2026-11-21T12:00:00Z
         */
        end?: string;
        /**
         * @description With an account token: which of the account's domains (required when it has more than one). A sending key reads its own domain.
         * @example mail.example.com
         */
        domain?: string;
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Newest first, ties by id */
            messages: {
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              id: string;
              /**
               * @description The sending domain
               * @example mail.example.com
               */
              domain: string;
              /**
               * @description The sender address, after the from rules
               * @example orders@mail.example.com
               */
              from: string;
              /** @example Your order 4711 */
              subject: string;
              /**
               * @example [
               *       "receipt"
               *     ]
               */
              tags: string[];
              /**
               * @description The metadata given at send
               * @example {
               *       "order": "4711"
               *     }
               */
              metadata: {
                [key: string]: string;
              };
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /** @description The template the message was rendered from; null when it was sent with its own html or text */
              template: {
                name: string;
                version: number;
              } | null;
              recipients: {
                /** @example ana@example.org */
                address: string;
                /**
                 * @description `queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time)
                 * @enum {string}
                 */
                status: 'queued' | 'deferred' | 'delivered' | 'failed' | 'rejected' | 'suppressed' | 'scheduled';
                /** @description The recipient's newest event; null before it has one */
                last_event: {
                  /**
                   * @description `evt_…`
                   * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
                   */
                  id: string;
                  /**
                   * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
                   * @example delivered
                   */
                  event: string;
                  /**
                   * Format: date-time
                   * @example 2026-11-25T09:30:00.000Z
                   */
                  occurred_at: string;
                  /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
                  message_id: string;
                  /**
                   * @description The sender address, after the from rules
                   * @example orders@example.com
                   */
                  from: string;
                  /**
                   * @description The recipient this event is about
                   * @example ana@example.org
                   */
                  to: string;
                  /** @example Your order 4711 */
                  subject: string;
                  /**
                   * @example [
                   *       "receipt"
                   *     ]
                   */
                  tags: string[];
                  /**
                   * @description The metadata given at send (`{}` when none)
                   * @example {
                   *       "order_id": "4711"
                   *     }
                   */
                  metadata: {
                    [key: string]: string;
                  };
                  /**
                   * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
                   * @example {
                   *       "mx_host": "mx.example.org",
                   *       "response": "250 2.0.0 OK"
                   *     }
                   */
                  details: {
                    [key: string]: unknown;
                  };
                } | null;
                /**
                 * Format: date-time
                 * @example 2026-11-25T09:30:00.000Z
                 */
                updated_at: string;
                /**
                 * @description While another attempt is to come: why the last one failed, usually the receiving server's reply (`451 4.3.0 …`). Deferrals are not events, so this is where they show.
                 * @example 451 4.3.0 Temporary failure, try again later
                 */
                last_reply: string | null;
                /** @description When the next attempt is due, while one is (null during an attempt and once done) */
                next_attempt_at: string | null;
              }[];
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The message id from the send response, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
            id: string;
            /**
             * @description The sending domain
             * @example mail.example.com
             */
            domain: string;
            /**
             * @description The sender address, after the from rules
             * @example orders@mail.example.com
             */
            from: string;
            /** @example Your order 4711 */
            subject: string;
            /**
             * @example [
             *       "receipt"
             *     ]
             */
            tags: string[];
            /**
             * @description The metadata given at send
             * @example {
             *       "order": "4711"
             *     }
             */
            metadata: {
              [key: string]: string;
            };
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /** @description The template the message was rendered from; null when it was sent with its own html or text */
            template: {
              name: string;
              version: number;
            } | null;
            recipients: {
              /** @example ana@example.org */
              address: string;
              /**
               * @description `queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time)
               * @enum {string}
               */
              status: 'queued' | 'deferred' | 'delivered' | 'failed' | 'rejected' | 'suppressed' | 'scheduled';
              /** @description The recipient's newest event; null before it has one */
              last_event: {
                /**
                 * @description `evt_…`
                 * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
                 */
                id: string;
                /**
                 * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
                 * @example delivered
                 */
                event: string;
                /**
                 * Format: date-time
                 * @example 2026-11-25T09:30:00.000Z
                 */
                occurred_at: string;
                /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
                message_id: string;
                /**
                 * @description The sender address, after the from rules
                 * @example orders@example.com
                 */
                from: string;
                /**
                 * @description The recipient this event is about
                 * @example ana@example.org
                 */
                to: string;
                /** @example Your order 4711 */
                subject: string;
                /**
                 * @example [
                 *       "receipt"
                 *     ]
                 */
                tags: string[];
                /**
                 * @description The metadata given at send (`{}` when none)
                 * @example {
                 *       "order_id": "4711"
                 *     }
                 */
                metadata: {
                  [key: string]: string;
                };
                /**
                 * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
                 * @example {
                 *       "mx_host": "mx.example.org",
                 *       "response": "250 2.0.0 OK"
                 *     }
                 */
                details: {
                  [key: string]: unknown;
                };
              } | null;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              updated_at: string;
              /**
               * @description While another attempt is to come: why the last one failed, usually the receiving server's reply (`451 4.3.0 …`). Deferrals are not events, so this is where they show.
               * @example 451 4.3.0 Temporary failure, try again later
               */
              last_reply: string | null;
              /** @description When the next attempt is due, while one is (null during an attempt and once done) */
              next_attempt_at: string | null;
            }[];
            /** @description The message's events, oldest first (at most 1,000: see events_truncated) */
            events: {
              /**
               * @description `evt_…`
               * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              id: string;
              /**
               * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
               * @example delivered
               */
              event: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              occurred_at: string;
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              message_id: string;
              /**
               * @description The sender address, after the from rules
               * @example orders@example.com
               */
              from: string;
              /**
               * @description The recipient this event is about
               * @example ana@example.org
               */
              to: string;
              /** @example Your order 4711 */
              subject: string;
              /**
               * @example [
               *       "receipt"
               *     ]
               */
              tags: string[];
              /**
               * @description The metadata given at send (`{}` when none)
               * @example {
               *       "order_id": "4711"
               *     }
               */
              metadata: {
                [key: string]: string;
              };
              /**
               * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
               * @example {
               *       "mx_host": "mx.example.org",
               *       "response": "250 2.0.0 OK"
               *     }
               */
              details: {
                [key: string]: unknown;
              };
            }[];
            /** @description True when the message has more than 1,000 events: page GET /v1/events?message_id= for all */
            events_truncated: boolean;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  cancelMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The message id from the send response, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Recipients cancelled (now `failed`, reason `cancelled`). */
            cancelled: number;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMessageContent: {
    parameters: {
      query?: {
        /**
         * @description The copy signed for this recipient (copies differ per recipient with tracking, and per recipient domain in their DKIM-Signature); default: the copy signed last
         * @example ana@example.org
         */
        recipient?: string;
      };
      header?: never;
      path: {
        /**
         * @description The message id from the send response, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signed message (RFC 5322) as handed to delivery: its DKIM-Signature fields, then the message. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'message/rfc822': string;
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listNotices: {
    parameters: {
      query?: {
        /**
         * @description Only the notices of this domain of the account.
         * @example example.com
         */
        domain?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The newest notices first, at most 100. */
            notices: {
              /**
               * @description The notice’s id.
               * @example ntc_01JD3Q6W8V4Z1T2N5R7X9K0M4B
               */
              id: string;
              /**
               * @description What it is about: `domain.warning`, `domain.unverified`, `domain.complaint_rate`, `webhook.disabled`, …
               * @example domain.complaint_rate
               */
              kind: string;
              /**
               * @description The domain it concerns; null for an account-wide notice.
               * @example example.com
               */
              domain: string | null;
              /**
               * @description What happened and what to do, in words.
               * @example example.com: complaint rate 0.09% over 30 days is near the 0.1% limit
               */
              message: string;
              /** @description The figures behind the message. */
              details: {
                [key: string]: unknown;
              };
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listProviders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Every provider, `other` last. */
            providers: {
              /**
               * @description The provider’s name; `other` is every host of no provider.
               * @example gmail
               */
              provider: string;
              /**
               * @description MX host name suffixes that roll up into it.
               * @example [
               *       "google.com",
               *       "googlemail.com",
               *       "gmail.com"
               *     ]
               */
              suffixes: string[];
              /** @description SMTP sessions at once to all its hosts (`other`: per host). */
              connections: number;
              /** @description Transactions per session before it is closed. */
              messages_per_connection: number;
              /** @description The configured maximum pace, recipients per minute; null: none. */
              per_minute: number | null;
              /** @description Whether throttling replies and blocks change its state (every provider but `other`). */
              adaptive: boolean;
              /** @description The pace now, recipients per minute, over the cluster; null without a per-minute limit. */
              rate: number | null;
              /** @description True while the pace is below the maximum after throttling replies. */
              throttled: boolean;
              /** @description Throttling replies received from it. */
              throttle_events: number;
              /** @description When the last throttling reply came. */
              last_throttle_at: string | null;
              /** @description The last throttling reply, verbatim. */
              last_reply: string | null;
              /** @description True while any node sends nothing to it after a reputation block. */
              suspended: boolean;
              /** @description The suspensions in force, one per node. */
              suspensions: {
                /** @description The node (its POSTHORN_HOSTNAME) that is suspended. */
                node: string;
                /** Format: date-time */
                since: string;
                /** Format: date-time */
                until: string;
                /** @description The block reply, verbatim. */
                reply: string;
              }[];
            }[];
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listSuppressions: {
    parameters: {
      query?: {
        /**
         * @description Only addresses containing this text (case-insensitive, anywhere in the address): `@example.com` lists a domain, `ana` every address with "ana" in it.
         * @example @example.com
         */
        address?: string;
        /**
         * @description Why the address is suppressed: `hard_bounce`, `complaint` and `unsubscribed` are added by Posthorn from what happened to a message; `manual` by a person or an import.
         * @example hard_bounce
         */
        reason?: 'hard_bounce' | 'complaint' | 'unsubscribed' | 'manual';
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            suppressions: {
              /**
               * @description The suppressed address, lower-cased.
               * @example ana@example.org
               */
              address: string;
              /**
               * @description Why the address is suppressed: `hard_bounce`, `complaint` and `unsubscribed` are added by Posthorn from what happened to a message; `manual` by a person or an import.
               * @example hard_bounce
               * @enum {string}
               */
              reason: 'hard_bounce' | 'complaint' | 'unsubscribed' | 'manual';
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /**
               * @description The sending domain whose mail led to the suppression (a bounce, complaint or unsubscribe), or as imported; null when added by hand.
               * @example mail.example.com
               */
              domain: string | null;
              /**
               * @description The message whose bounce, complaint or unsubscribe suppressed the address; null when added by hand.
               * @example msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR
               */
              message_id: string | null;
              /**
               * @description For a hard_bounce: why the address failed, in the bounce reason taxonomy (user_unknown, host_unknown, not_accepting, mailbox_moved, mailbox_disabled); null otherwise.
               * @example user_unknown
               */
              bounce_reason: string | null;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  addSuppression: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "address": "ana@example.org",
         *       "reason": "manual"
         *     }
         */
        'application/json': {
          /**
           * @description An email address; compared case-insensitively and stored lower-cased.
           * @example ana@example.org
           */
          address: string;
          /**
           * @description Why the address is suppressed: `hard_bounce`, `complaint` and `unsubscribed` are added by Posthorn from what happened to a message; `manual` by a person or an import.
           * @example hard_bounce
           * @enum {string}
           */
          reason?: 'hard_bounce' | 'complaint' | 'unsubscribed' | 'manual';
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The suppressed address, lower-cased.
             * @example ana@example.org
             */
            address: string;
            /**
             * @description Why the address is suppressed: `hard_bounce`, `complaint` and `unsubscribed` are added by Posthorn from what happened to a message; `manual` by a person or an import.
             * @example hard_bounce
             * @enum {string}
             */
            reason: 'hard_bounce' | 'complaint' | 'unsubscribed' | 'manual';
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * @description The sending domain whose mail led to the suppression (a bounce, complaint or unsubscribe), or as imported; null when added by hand.
             * @example mail.example.com
             */
            domain: string | null;
            /**
             * @description The message whose bounce, complaint or unsubscribe suppressed the address; null when added by hand.
             * @example msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR
             */
            message_id: string | null;
            /**
             * @description For a hard_bounce: why the address failed, in the bounce reason taxonomy (user_unknown, host_unknown, not_accepting, mailbox_moved, mailbox_disabled); null otherwise.
             * @example user_unknown
             */
            bounce_reason: string | null;
          };
        };
      };
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The suppressed address, lower-cased.
             * @example ana@example.org
             */
            address: string;
            /**
             * @description Why the address is suppressed: `hard_bounce`, `complaint` and `unsubscribed` are added by Posthorn from what happened to a message; `manual` by a person or an import.
             * @example hard_bounce
             * @enum {string}
             */
            reason: 'hard_bounce' | 'complaint' | 'unsubscribed' | 'manual';
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * @description The sending domain whose mail led to the suppression (a bounce, complaint or unsubscribe), or as imported; null when added by hand.
             * @example mail.example.com
             */
            domain: string | null;
            /**
             * @description The message whose bounce, complaint or unsubscribe suppressed the address; null when added by hand.
             * @example msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR
             */
            message_id: string | null;
            /**
             * @description For a hard_bounce: why the address failed, in the bounce reason taxonomy (user_unknown, host_unknown, not_accepting, mailbox_moved, mailbox_disabled); null otherwise.
             * @example user_unknown
             */
            bounce_reason: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  removeSuppression: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description An email address; compared case-insensitively and stored lower-cased.
         * @example ana@example.org
         */
        address: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  exportSuppressions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The whole list in address order: CSV with the header line `address,reason,created_at,domain,message_id` (RFC 4180, empty fields for null), or one JSON object per line with `Accept: application/x-ndjson`. Streamed (chunked). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
          'application/x-ndjson': string;
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  importSuppressions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example address,reason,created_at,domain,message_id
         *     ana@example.org,hard_bounce,2026-11-21T16:09:00.000Z,mail.example.com,msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR
         *     bob@example.net,manual,2026-11-22T08:00:00.000Z,,
         */
        'text/csv': string;
        /** @example {"address":"ana@example.org","reason":"hard_bounce","created_at":"2026-11-21T16:09:00.000Z","domain":"mail.example.com","message_id":"msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR"} */
        'application/x-ndjson': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description Rows added to the list.
             * @example 998
             */
            imported: number;
            /**
             * @description Valid rows whose address was already listed (or came earlier in the same file); left unchanged.
             * @example 1
             */
            already_suppressed: number;
            /**
             * @description Rows not imported because they are invalid.
             * @example 1
             */
            invalid_count: number;
            /**
             * @description The first 100 invalid rows, in file order.
             * @example [
             *       {
             *         "line": 7,
             *         "value": "bob@",
             *         "message": "address \"bob@\" is not an email address (expected local@domain.example)"
             *       }
             *     ]
             */
            invalid: {
              /** @description Where the row starts in the file (the CSV header is line 1). */
              line: number;
              /** @description The value at fault (cut to 200 characters); empty when the row could not be read. */
              value: string;
              /** @description What is wrong with it. */
              message: string;
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large`: the body is over 10 MiB ([more](/docs/errors#payload_too_large)) */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `server_busy`: the server is at its limit of request bodies being received; `Retry-After` says when to retry ([more](/docs/errors#server_busy)) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listQueue: {
    parameters: {
      query?: {
        /**
         * @description A recipient domain
         * @example example.org
         */
        domain?: string;
        /**
         * @description A mailbox provider, as the delivery metrics label it: from the MX host the mail goes to. One of gmail, outlook, yahoo, apple, other, or a provider added by POSTHORN_PROVIDERS.
         * @example gmail
         */
        provider?: string;
        /** @description `queued` (not tried yet), `deferred` (tried, to be tried again), `scheduled` (its send time is ahead), `suspended` (pushed back by a hold, waiting for it to end) */
        status?: 'queued' | 'deferred' | 'scheduled' | 'suspended';
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobs: {
              /** @example job_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              id: string;
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              message_id: string;
              /** @example ana@example.org */
              recipient: string;
              /**
               * @description The recipient's domain
               * @example example.org
               */
              domain: string;
              /** @description The provider of the MX host last tried; null before a route was resolved. */
              provider: string | null;
              /**
               * @description `queued` (not tried yet), `deferred` (tried, to be tried again), `scheduled` (its send time is ahead), `suspended` (pushed back by a hold, waiting for it to end)
               * @enum {string}
               */
              status: 'queued' | 'deferred' | 'scheduled' | 'suspended';
              attempts: number;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              next_attempt_at: string;
              /**
               * @description The last temporary failure: the remote reply, or why no server was reached.
               * @example 451 4.7.1 Try again later
               */
              last_reply: string | null;
              send_at: string | null;
              /** @description True while a delivery worker is attempting it. */
              in_attempt: boolean;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listQueueHolds: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            holds: {
              /**
               * @description `domain` (a recipient domain) or `provider` (gmail, outlook, yahoo, apple, other)
               * @enum {string}
               */
              scope: 'domain' | 'provider';
              /** @example example.org */
              value: string;
              /** @description True for a hold of this account's mail alone; false for the operator's hold over every account. */
              account_only: boolean;
              reason: string | null;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /** @description When it ends by itself; null: until resumed. */
              until: string | null;
              /** @example token:ops */
              actor: string;
            }[];
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  suspendQueue: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Exactly one of domain and provider. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description A recipient domain
           * @example example.org
           */
          domain?: string;
          /**
           * @description A mailbox provider, as the delivery metrics label it: from the MX host the mail goes to. One of gmail, outlook, yahoo, apple, other, or a provider added by POSTHORN_PROVIDERS.
           * @example gmail
           */
          provider?: string;
          /**
           * @description When the hold ends by itself: ISO 8601 with an offset, Unix seconds, or a duration such as 2h.
           * @example 2h
           */
          until?: string | number;
          /** @example provider rate-limiting us */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description `domain` (a recipient domain) or `provider` (gmail, outlook, yahoo, apple, other)
             * @enum {string}
             */
            scope: 'domain' | 'provider';
            /** @example example.org */
            value: string;
            /** @description True for a hold of this account's mail alone; false for the operator's hold over every account. */
            account_only: boolean;
            reason: string | null;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /** @description When it ends by itself; null: until resumed. */
            until: string | null;
            /** @example token:ops */
            actor: string;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  resumeQueue: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description `domain` (a recipient domain) or `provider` (gmail, outlook, yahoo, apple, other) */
        scope: 'domain' | 'provider';
        /** @example example.org */
        value: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  retryQueue: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description Exactly one of domain and provider. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description A recipient domain
           * @example example.org
           */
          domain?: string;
          /**
           * @description A mailbox provider, as the delivery metrics label it: from the MX host the mail goes to. One of gmail, outlook, yahoo, apple, other, or a provider added by POSTHORN_PROVIDERS.
           * @example gmail
           */
          provider?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Jobs made due now. */
            retried: number;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMessageQueue: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The message id, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        message_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
            message_id: string;
            send_at: string | null;
            recipients: {
              address: string;
              /** @description The recipient's status, as GET /v1/messages/{id} shows it. */
              status: string;
              /** @description Its delivery job while one is left. */
              job: {
                /** @example job_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
                id: string;
                /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
                message_id: string;
                /** @example ana@example.org */
                recipient: string;
                /**
                 * @description The recipient's domain
                 * @example example.org
                 */
                domain: string;
                /** @description The provider of the MX host last tried; null before a route was resolved. */
                provider: string | null;
                /**
                 * @description `queued` (not tried yet), `deferred` (tried, to be tried again), `scheduled` (its send time is ahead), `suspended` (pushed back by a hold, waiting for it to end)
                 * @enum {string}
                 */
                status: 'queued' | 'deferred' | 'scheduled' | 'suspended';
                attempts: number;
                /**
                 * Format: date-time
                 * @example 2026-11-25T09:30:00.000Z
                 */
                next_attempt_at: string;
                /**
                 * @description The last temporary failure: the remote reply, or why no server was reached.
                 * @example 451 4.7.1 Try again later
                 */
                last_reply: string | null;
                send_at: string | null;
                /** @description True while a delivery worker is attempting it. */
                in_attempt: boolean;
              } | null;
            }[];
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  retryMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The message id, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        message_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Jobs made due now. */
            retried: number;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  cancelQueuedMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The message id, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        message_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Recipients cancelled (now `failed`, reason `cancelled`). */
            cancelled: number;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `conflict`: the change clashes with what is stored, such as a name already taken ([more](/docs/errors#conflict)) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listSandboxMessages: {
    parameters: {
      query?: {
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Newest first */
            messages: {
              /**
               * @description The kept message’s id
               * @example sbx_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              id: string;
              /**
               * @description The id of the message it was delivered for (its events carry it)
               * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              message_id: string;
              /**
               * @description The envelope sender it was delivered with: the signed return path on the bounce host
               * @example b-grp_01jd8x4y2z3a4b5c6d7e8f9g0h.ab12cd34@bounce.sandbox.posthorn.test
               */
              mail_from: string;
              /**
               * @description The envelope recipients the sandbox accepted in this delivery
               * @example [
               *       "bounce@example.com"
               *     ]
               */
              to: string[];
              /**
               * @description The From header
               * @example hello@sandbox.posthorn.test
               */
              from: string;
              /**
               * @description The Subject header, decoded
               * @example Hello from Posthorn
               */
              subject: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              received_at: string;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSandboxMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The kept message’s id, `sbx_…`
         * @example sbx_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The kept message’s id
             * @example sbx_01JD8X4Y2Z3A4B5C6D7E8F9G0H
             */
            id: string;
            /**
             * @description The id of the message it was delivered for (its events carry it)
             * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
             */
            message_id: string;
            /**
             * @description The envelope sender it was delivered with: the signed return path on the bounce host
             * @example b-grp_01jd8x4y2z3a4b5c6d7e8f9g0h.ab12cd34@bounce.sandbox.posthorn.test
             */
            mail_from: string;
            /**
             * @description The envelope recipients the sandbox accepted in this delivery
             * @example [
             *       "bounce@example.com"
             *     ]
             */
            to: string[];
            /**
             * @description The From header
             * @example hello@sandbox.posthorn.test
             */
            from: string;
            /**
             * @description The Subject header, decoded
             * @example Hello from Posthorn
             */
            subject: string;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            received_at: string;
            /** @description The raw message’s size in bytes, as signed */
            size: number;
            /** @description The HTML body, decoded; null when the message has none */
            html: string | null;
            /** @description The plain-text body, decoded; null when the message has none */
            text: string | null;
          };
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSandboxMessageRaw: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The kept message’s id, `sbx_…`
         * @example sbx_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The message byte for byte as the sandbox received it: DKIM-signed, tracking URLs in place (RFC 5322, served as `message/rfc822`). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'message/rfc822': string;
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  testSend: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description One recipient. In the sandbox its local part picks the outcome: `bounce@`, `block@`, `defer@`, `open@`, `click@`, `unsubscribe@`, `complain@` (any other address is delivered).
           * @example bounce@example.com
           */
          to: string;
          /**
           * @description The subject; `Test message from Posthorn` when left out
           * @example Hello from Posthorn
           */
          subject?: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H",
           *       "status": "queued",
           *       "dkim": "signed",
           *       "dmarc": "aligned"
           *     }
           */
          'application/json': {
            /**
             * @description The message id every event of the message carries.
             * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
             */
            id: string;
            /** @enum {string} */
            status: 'queued';
            /** @enum {string} */
            dkim: 'signed';
            /** @enum {string} */
            dmarc: 'aligned';
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)); `domain_unverified`: the domain has not passed verification ([more](/docs/errors#domain_unverified)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no such route, or no such resource in this account; `field` names the path parameter ([more](/docs/errors#not_found)) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `recipient_suppressed`: a recipient is on the account's suppression list ([more](/docs/errors#recipient_suppressed)) */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`: over a rate limit; `Retry-After` says when to retry ([more](/docs/errors#rate_limited)); `quota_exceeded`: over the account's monthly quota; `Retry-After` points at the next month ([more](/docs/errors#quota_exceeded)) */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `server_busy`: the server is at its limit of request bodies being received; `Retry-After` says when to retry ([more](/docs/errors#server_busy)) */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
