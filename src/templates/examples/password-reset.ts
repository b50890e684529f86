import { button, layout, STYLE, TEXT_FOOTER } from './layout.js';
import type { ExampleTemplate } from './example-template.js';

/** Sent when someone asks to reset their password: the link, how long it lasts, and what to do if it was not them. */
export const passwordReset: ExampleTemplate = {
  name: 'password-reset',
  subject: 'Reset your {{product.name}} password',
  html: layout({
    title: 'Reset your {{product.name}} password',
    preheader: 'Use this link to choose a new password. It expires in {{default expires_in "1 hour"}}.',
    content: `<h1 style="${STYLE.h1}">Reset your password</h1>
<p style="${STYLE.p}">Hi {{default user.first_name "there"}}, someone asked to reset the password of your {{product.name}} account{{#if user.email}} ({{user.email}}){{/if}}. Choose a new one here:</p>
${button('{{reset_url}}', 'Choose a new password')}
<p style="${STYLE.p}">This link expires in {{default expires_in "1 hour"}} and works once. If the button does not work, copy this link into your browser:<br><a href="{{reset_url}}" style="${STYLE.link}">{{reset_url}}</a></p>
<p style="${STYLE.p}">If you did not ask for this, ignore this email: your password stays as it is.</p>
{{#if request}}<p style="${STYLE.small}">Requested{{#if request.time}} on {{date request.time "D MMMM YYYY, HH:mm"}} UTC{{/if}}{{#if request.ip}} from {{request.ip}}{{/if}}{{#if request.browser}} ({{request.browser}}){{/if}}.</p>
{{/if}}`,
  }),
  text: `Reset your password

Hi {{default user.first_name "there"}}, someone asked to reset the password of your {{product.name}} account{{#if user.email}} ({{user.email}}){{/if}}. Choose a new one here:

{{reset_url}}

This link expires in {{default expires_in "1 hour"}} and works once.

If you did not ask for this, ignore this email: your password stays as it is.
{{#if request}}

Requested{{#if request.time}} on {{date request.time "D MMMM YYYY, HH:mm"}} UTC{{/if}}{{#if request.ip}} from {{request.ip}}{{/if}}{{#if request.browser}} ({{request.browser}}){{/if}}.
{{/if}}

${TEXT_FOOTER}`,
  sample: {
    product: { name: 'Acme' },
    user: { first_name: 'Ada', email: 'ada@example.org' },
    reset_url: 'https://app.acme.example/reset?token=9f8e7d6c5b4a',
    expires_in: '30 minutes',
    request: { time: '2026-11-25T09:30:00Z', ip: '203.0.113.7', browser: 'Firefox on Linux' },
    company: { name: 'Acme Inc.', address: '1 Example Street, Springfield' },
  },
};
