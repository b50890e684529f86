import { button, layout, STYLE, TEXT_FOOTER } from './layout.js';
import type { ExampleTemplate } from './example-template.js';

/** Sent when someone signs up: a greeting and one next step. */
export const welcome: ExampleTemplate = {
  name: 'welcome',
  subject: 'Welcome to {{product.name}}, {{default user.first_name "there"}}!',
  html: layout({
    title: 'Welcome to {{product.name}}',
    preheader: 'Your {{product.name}} account is ready. Here is how to get started.',
    content: `<h1 style="${STYLE.h1}">Welcome, {{default user.first_name "there"}}!</h1>
<p style="${STYLE.p}">Your {{product.name}} account is ready. Everything you need to get going is one click away.</p>
${button('{{action_url}}', 'Get started')}
<p style="${STYLE.p}">If the button does not work, copy this link into your browser:<br><a href="{{action_url}}" style="${STYLE.link}">{{action_url}}</a></p>
{{#if support_email}}<p style="${STYLE.p}">Questions? Reply to this email or write to <a href="mailto:{{support_email}}" style="${STYLE.inline}">{{support_email}}</a>.</p>
{{/if}}<p style="${STYLE.p}">Welcome aboard,<br>The {{product.name}} team</p>`,
  }),
  text: `Welcome, {{default user.first_name "there"}}!

Your {{product.name}} account is ready. Get started here:

{{action_url}}
{{#if support_email}}

Questions? Reply to this email or write to {{support_email}}.
{{/if}}

Welcome aboard,
The {{product.name}} team

${TEXT_FOOTER}`,
  sample: {
    product: { name: 'Acme' },
    user: { first_name: 'Ada' },
    action_url: 'https://app.acme.example/start?token=abc123',
    support_email: 'help@acme.example',
    company: { name: 'Acme Inc.', address: '1 Example Street, Springfield' },
  },
};
