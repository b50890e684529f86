import https from 'node:https';

/** What one POST /v1/send over real HTTPS came to: a status (and id), or a transport error such as a killed server. */
export type SendOutcome = { status: number; id?: string } | { error: string };

/** POSTs `body` to `<url>/v1/send` through `agent`; never rejects, so a crash mid-request is an outcome. */
export function postSendHttps(
  url: string,
  agent: https.Agent,
  key: string,
  body: Record<string, unknown>,
): Promise<SendOutcome> {
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = https.request(
      `${url}/v1/send`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          data += d;
        });
        res.on('end', () => {
          try {
            const parsed = JSON.parse(data) as { id?: string };
            resolve({ status: res.statusCode ?? 0, ...(parsed.id ? { id: parsed.id } : {}) });
          } catch {
            resolve({ error: `unparsable response ${res.statusCode}` });
          }
        });
        res.on('error', (e) => resolve({ error: e.message }));
      },
    );
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(payload);
  });
}
