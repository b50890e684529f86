import { button, layout, STYLE, TEXT_FOOTER } from './layout.js';
import type { ExampleTemplate } from './example-template.js';

const RIGHT = `${STYLE.cell} text-align:right; white-space:nowrap;`;
const TOTAL = `padding:12px 0 0 0; font-family:${STYLE.font}; font-size:16px; line-height:24px; font-weight:700; color:#111827;`;

/**
 * A receipt for a payment: the line items, totals and payment method. Amounts are given
 * formatted (`"$12.00"`): a template writes values, it does not do arithmetic or currency formats.
 */
export const receipt: ExampleTemplate = {
  name: 'receipt',
  subject: 'Your {{product.name}} receipt #{{receipt.number}}',
  html: layout({
    title: 'Receipt #{{receipt.number}}',
    preheader: 'Receipt #{{receipt.number}}: {{receipt.total}} paid on {{date receipt.date "D MMMM YYYY"}}.',
    content: `<h1 style="${STYLE.h1}">Thank you for your payment</h1>
<p style="${STYLE.p}">Hi {{default customer.name "there"}}, here is your receipt #{{receipt.number}} of {{date receipt.date "D MMMM YYYY"}}.</p>
<table class="items" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%; margin:0 0 16px 0; border-collapse:collapse;">
<thead>
<tr>
<th scope="col" style="${STYLE.cell} text-align:left; font-weight:700; color:#111827;">Item</th>
<th scope="col" style="${RIGHT} font-weight:700; color:#111827;">Qty</th>
<th scope="col" style="${RIGHT} font-weight:700; color:#111827;">Amount</th>
</tr>
</thead>
<tbody>
{{#each receipt.items}}<tr>
<td style="${STYLE.cell}">{{description}}</td>
<td style="${RIGHT}">{{default quantity 1}}</td>
<td style="${RIGHT}">{{amount}}</td>
</tr>
{{/each}}</tbody>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%; margin:0 0 24px 0;">
<tbody>
{{#if receipt.subtotal}}<tr>
<td style="${STYLE.cell} border-bottom:0;">Subtotal</td>
<td style="${RIGHT} border-bottom:0;">{{receipt.subtotal}}</td>
</tr>
{{/if}}{{#if receipt.tax}}<tr>
<td style="${STYLE.cell} border-bottom:0;">{{default receipt.tax_label "Tax"}}</td>
<td style="${RIGHT} border-bottom:0;">{{receipt.tax}}</td>
</tr>
{{/if}}<tr>
<td style="${TOTAL}">Total paid</td>
<td style="${TOTAL} text-align:right; white-space:nowrap;">{{receipt.total}}</td>
</tr>
</tbody>
</table>
{{#if payment.method}}<p style="${STYLE.p}">Paid with {{payment.method}}.</p>
{{/if}}{{#if receipt.url}}${button('{{receipt.url}}', 'View receipt online')}
{{/if}}<p style="${STYLE.small}">Keep this email for your records.{{#if company.tax_id}} {{company.name}}, tax ID {{company.tax_id}}.{{/if}}</p>`,
  }),
  text: `Thank you for your payment

Hi {{default customer.name "there"}}, here is your receipt #{{receipt.number}} of {{date receipt.date "D MMMM YYYY"}}.

{{#each receipt.items}}
- {{description}} × {{default quantity 1}}: {{amount}}
{{/each}}

{{#if receipt.subtotal}}
Subtotal: {{receipt.subtotal}}
{{/if}}
{{#if receipt.tax}}
{{default receipt.tax_label "Tax"}}: {{receipt.tax}}
{{/if}}
Total paid: {{receipt.total}}
{{#if payment.method}}
Paid with {{payment.method}}.
{{/if}}
{{#if receipt.url}}

View it online: {{receipt.url}}
{{/if}}

Keep this email for your records.{{#if company.tax_id}} {{company.name}}, tax ID {{company.tax_id}}.{{/if}}

${TEXT_FOOTER}`,
  sample: {
    product: { name: 'Acme' },
    customer: { name: 'Ada Lovelace' },
    receipt: {
      number: '10042',
      date: '2026-11-25',
      items: [
        { description: 'Pro plan, November 2026', quantity: 1, amount: '$29.00' },
        { description: 'Extra seats', quantity: 3, amount: '$15.00' },
      ],
      subtotal: '$44.00',
      tax: '$8.36',
      tax_label: 'VAT 19%',
      total: '$52.36',
      url: 'https://app.acme.example/receipts/10042',
    },
    payment: { method: 'Visa ending in 4242' },
    company: { name: 'Acme Inc.', address: '1 Example Street, Springfield', tax_id: 'DE123456789' },
  },
};
