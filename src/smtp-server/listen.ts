import type { SMTPServer } from 'smtp-server';

/** Binds an SMTP listener and gives the port it got (0 in the configuration means any free port). */
export function listenSmtp(server: SMTPServer, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.server.address() as { port: number }).port);
    });
  });
}

/** Stops accepting connections and resolves once smtp-server has closed the listener. */
export function closeSmtp(server: SMTPServer): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}
