/**
 * The frame the starter templates share (docs/templates.md, Starter templates), written out into
 * each template at build time, since a stored template is one self-contained part (no partials).
 * Email HTML as the major clients render it: a table layout (Outlook's Word engine ignores most
 * CSS layout), inline styles (several clients drop <style> or rewrite class names), a 600 px
 * column that becomes full width on small screens through the one media query in <head>, a
 * hidden preheader (the preview line inboxes show), and system fonts.
 */

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** Inline styles used by the templates' content. */
export const STYLE = {
  h1: `margin:0 0 16px 0; font-family:${FONT}; font-size:24px; line-height:32px; font-weight:700; color:#111827;`,
  p: `margin:0 0 16px 0; font-family:${FONT}; font-size:16px; line-height:24px; color:#374151;`,
  small: `margin:0 0 8px 0; font-family:${FONT}; font-size:13px; line-height:20px; color:#6b7280;`,
  /** A long URL written out: it may break anywhere rather than widen the column. */
  link: 'color:#2457d6; text-decoration:underline; word-break:break-all;',
  inline: 'color:#2457d6; text-decoration:underline;',
  cell: `padding:8px 0; font-family:${FONT}; font-size:15px; line-height:22px; color:#374151; border-bottom:1px solid #e5e7eb;`,
  font: FONT,
};

/** A call-to-action button: a table cell with a link, which every client shows as a button. */
export function button(href: string, label: string): string {
  return `<table role="presentation" class="button" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;">
<tbody>
<tr>
<td style="border-radius:6px; background-color:#2457d6;">
<a href="${href}" style="display:inline-block; padding:12px 28px; font-family:${FONT}; font-size:16px; line-height:24px; font-weight:700; color:#ffffff; text-decoration:none; border-radius:6px;">${label}</a>
</td>
</tr>
</tbody>
</table>`;
}

/** The whole document around `content`, with `title` and the hidden `preheader`. */
export function layout(opts: { title: string; preheader: string; content: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${opts.title}</title>
<style>
@media only screen and (max-width: 620px) {
  .container { width: 100% !important; }
  .header { padding: 24px 20px 0 20px !important; }
  .content { padding: 24px 20px !important; }
  .footer { padding: 16px 20px !important; }
  .button { width: 100% !important; }
  .button a { display: block !important; text-align: center !important; }
}
</style>
</head>
<body style="margin:0; padding:0; width:100%; background-color:#f3f4f6;">
<div style="display:none; max-height:0; max-width:0; overflow:hidden; opacity:0; mso-hide:all;">${opts.preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tbody>
<tr>
<td align="center" style="padding:32px 12px;">
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px; max-width:600px; background-color:#ffffff; border-radius:8px;">
<tbody>
<tr>
<td class="header" style="padding:24px 40px 0 40px; font-family:${FONT}; font-size:18px; line-height:24px; font-weight:700; color:#111827;">{{product.name}}</td>
</tr>
<tr>
<td class="content" style="padding:24px 40px 32px 40px;">
${opts.content}
</td>
</tr>
</tbody>
</table>
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" style="width:600px; max-width:600px;">
<tbody>
<tr>
<td class="footer" style="padding:16px 40px; font-family:${FONT}; font-size:12px; line-height:18px; color:#6b7280; text-align:center;">
{{company.name}}{{#if company.address}} · {{company.address}}{{/if}}<br>
You received this email because of your account with {{product.name}}.
</td>
</tr>
</tbody>
</table>
</td>
</tr>
</tbody>
</table>
</body>
</html>
`;
}

/** The text part's footer, matching the HTML one. */
export const TEXT_FOOTER = `--
{{company.name}}{{#if company.address}}, {{company.address}}{{/if}}
You received this email because of your account with {{product.name}}.
`;
