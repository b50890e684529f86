/** Builds small reports for the format tests: composed here, in the shapes real servers send. */
export function message(headers: Record<string, string>, body: string): Buffer {
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return Buffer.from(`${head}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`, 'latin1');
}

export const bounceHeaders = (subject: string, from = 'Mail Delivery System <MAILER-DAEMON@mx.example.net>') => ({
  From: from,
  To: 'bounce+abc@send.example.com',
  Subject: subject,
  'Return-Path': '<>',
});
